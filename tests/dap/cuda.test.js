// cuda.test.js - `ptxdbg --dap` on CUDA programs (tests/cuda/, built with -G): the program runs
// with the runtime library and the engine inside it; the adapter relays. Expected values come
// from the programs' sources.
'use strict';
const test = require('node:test');
const assert = require('assert');
const path = require('path');
const fs = require('fs');
const L = require('./lib');

const cuda = n => path.join(L.top, 'tests', 'cuda', n);
const lib = path.join(path.dirname(L.ptxdbg), 'build', 'lib', 'libcudart.so.13');
const skip = !fs.existsSync(lib) && 'the runtime library is not built';

async function session(fn) {
    const dc = await L.start();
    try {
        await fn(dc);
    } finally {
        await dc.stop();
    }
}

// the same program linked with the shared CUDA runtime and with nvcc's default, the static one
for (const prog of ['vector_add.G', 'vector_add.G.static'])
test(`${prog}: pending breakpoint resolves, condition, variables, program output, exit status`, { skip }, () => session(async dc => {
    let bp;
    const changed = dc.waitForEvent('breakpoint');
    const stop = await L.launch(dc, { program: cuda(prog), args: ['1000'] }, async dc => {
        const r = await dc.setBreakpointsRequest({ source: { path: cuda('vector_add.cu') },
                                                   breakpoints: [{ line: 10, condition: 'threadIdx.x == 5' }] });
        bp = r.body.breakpoints[0];
        assert.strictEqual(bp.verified, false, 'pending until the program registers its kernels');
    });
    const ch = await changed;
    assert.strictEqual(ch.body.breakpoint.id, bp.id);
    assert.strictEqual(ch.body.breakpoint.verified, true);
    assert.strictEqual(stop.body.reason, 'breakpoint');
    assert.deepStrictEqual(stop.body.hitBreakpointIds, [bp.id]);
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(f.source.path, cuda('vector_add.cu'));
    assert.strictEqual(f.line, 10);
    // a[i] = i, b[i] = 2i + 1: thread 5 of block 0 sums 5 + 11
    assert.strictEqual(await L.evaluate(dc, 'sum', f.id), '16');
    assert.strictEqual(await L.evaluate(dc, 'a[i] + b[i]', f.id), '16');
    const locals = await L.scope(dc, f.id, 'Locals');
    assert.strictEqual(locals.find(v => v.name === 'n').value, '1000');
    assert.match(await L.evaluate(dc, 'info cuda kernels', f.id, 'repl'), /vector_add/);
    await dc.setBreakpointsRequest({ source: { path: cuda('vector_add.cu') }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 0);
    assert.match(dc.outputText.stdout, /vector_add: 1000 elements PASSED/);
}));

test('fault_oob: the fault stops as an exception; the program then sees the error', { skip }, () => session(async dc => {
    const stop = await L.launch(dc, { program: cuda('fault_oob.G') });
    assert.strictEqual(stop.body.reason, 'exception');
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.strictEqual(info.body.exceptionId, 'CUDA_EXCEPTION_5');
    assert.match(info.body.description, /Out-of-range/);
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(f.line, 10);
    assert.strictEqual(await L.evaluate(dc, 'i', f.id), '37');
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 3); // fault_oob.cu: expect_fault's status
}));

test('stopOnEntry and disconnect end the program', { skip }, () => session(async dc => {
    const stop = await L.launch(dc, { program: cuda('vector_add.G'), stopOnEntry: true });
    assert.strictEqual(stop.body.reason, 'entry');
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.match(f.name, /^vector_add/);
    await assert.rejects(dc.launchRequest({ program: cuda('vector_add.G') }), /already/);
}));
