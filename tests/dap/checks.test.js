// checks.test.js - checkers' findings in `ptxdbg --dap`: a finding stops as an exception whose
// exceptionInfo is the finding; the launch's "check" chooses the checkers and each checker's
// exception filter whether its findings stop. Kernels: tests/fixtures/checkers/synccheck.cu
// (the bug a kernel plants is marked there; the expected words are compute-sanitizer's).
'use strict';
const test = require('node:test');
const assert = require('assert');
const fs = require('fs');
const L = require('./lib');

const ptx = L.fixture('..', 'checkers', 'synccheck.G.ptx');
const cu = L.fixture('..', 'checkers', 'synccheck.cu');
const setup = ['buffer i s32 256 = iota', 'buffer o s32 4'];
// the barrier inside `if (t < k)` of divergent_bar, from the source
const src = fs.readFileSync(cu, 'utf8').split('\n');
const barLine = src.findIndex(l => /BUG: divergent-barrier/.test(l)) + 1;

async function session(fn) {
    const dc = await L.start();
    try {
        await fn(dc);
    } finally {
        await dc.stop();
    }
}

const args = (extra = {}) => Object.assign({ program: ptx, setupCommands: setup,
                                             kernel: 'divergent_bar<<<1, 256>>>(i, o)' }, extra);

test('a synccheck finding stops as an exception; exceptionInfo is the finding', () => session(async dc => {
    const init = await dc.initializeRequest();
    const filters = init.body.exceptionBreakpointFilters.map(f => f.filter);
    assert.ok(filters.includes('memcheck') && filters.includes('synccheck'));
    assert.ok(init.body.exceptionBreakpointFilters.every(f => f.default === true && f.label));
    const stop = await L.launch(dc, args({ check: 'all' }));
    assert.strictEqual(stop.body.reason, 'exception');
    assert.strictEqual(stop.body.description, 'Barrier error detected. Divergent thread(s) in block');
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.strictEqual(info.body.exceptionId, 'synccheck/divergent-barrier');
    assert.strictEqual(info.body.description, 'Barrier error detected. Divergent thread(s) in block');
    assert.match(info.body.details.message, new RegExp(`at divergent_bar in synccheck\\.cu:${barLine} `));
    assert.match(info.body.details.message, new RegExp(`reached barrier 0 at synccheck\\.cu:${barLine} `));
    assert.match(info.body.details.message, /lanes 0-31 exited at synccheck\.cu:\d+/);
    // the focus is a lane waiting at that barrier
    assert.strictEqual((await L.topFrame(dc, stop.body.threadId)).line, barLine);
    await L.continueTo(dc, 'terminated');
}));

test('a checker whose exception filter is off reports and goes on', () => session(async dc => {
    await dc.initializeRequest();
    const done = await L.launch(dc, args({ check: ['memcheck', 'synccheck'] }),
                                dc => dc.setExceptionBreakpointsRequest({ filters: ['memcheck'] }),
                                'terminated');
    assert.strictEqual(done.event, 'terminated');
    assert.match(dc.outputText.stderr, /synccheck: Barrier error detected\. Divergent thread\(s\) in block/);
}));

test('check "none" runs no checker', () => session(async dc => {
    await dc.initializeRequest();
    await L.launch(dc, args({ check: 'none' }), null, 'terminated');
    assert.doesNotMatch(dc.outputText.stderr, /synccheck/);
}));

test('a bad check or exception filter is refused', () => session(async dc => {
    await dc.initializeRequest();
    await assert.rejects(dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] }), /unknown filter/);
    await assert.rejects(dc.launchRequest({ program: ptx, check: 42 }), /check/);
    await assert.rejects(dc.launchRequest({ program: ptx, check: 'nosuchcheck' }), /nosuchcheck/);
}));

// A CUDA program (tests/cuda/chk_sync.cu, the spmv shuffle bug): "check" reaches the program's
// own session; the filter off lets it run to its end.
const path = require('path');
const prog = path.join(L.top, 'tests', 'cuda', 'chk_sync');
const lib = path.join(path.dirname(L.ptxdbg), 'build', 'lib', 'libcudart.so.13');
const skip = !fs.existsSync(lib) && 'the runtime library is not built';

test('a CUDA program: the finding stops as an exception, then the program ends', { skip }, () => session(async dc => {
    await dc.initializeRequest();
    const stop = await L.launch(dc, { program: prog, check: 'synccheck' });
    assert.strictEqual(stop.body.reason, 'exception');
    assert.strictEqual(stop.body.description, 'Warp shuffle error detected. Source lane(s) not participating');
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.strictEqual(info.body.exceptionId, 'synccheck/shuffle-from-inactive-lane');
    assert.match(info.body.details.message, /lane 0 reads lane 16; the value is undefined on a GPU/);
    // the other copies of the unrolled shuffle would stop too: the filter off, it runs to its end
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 0);
}));

test('a CUDA program with the synccheck filter off reports and runs to its end', { skip }, () => session(async dc => {
    await dc.initializeRequest();
    await L.launch(dc, { program: prog, check: ['synccheck'] },
                   dc => dc.setExceptionBreakpointsRequest({ filters: ['memcheck'] }), 'terminated');
    assert.match(dc.outputText.stderr, /synccheck: Warp shuffle error detected/);
    assert.match(dc.outputText.stdout, /chk_sync: done/);
}));
