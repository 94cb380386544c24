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
test(`${prog}: breakpoints verified from the fat binary before it runs, condition, variables, program output, exit status`, { skip }, () => session(async dc => {
    let bp, host, fn;
    const stop = await L.launch(dc, { program: cuda(prog), args: ['1000'] }, async dc => {
        const r = await dc.setBreakpointsRequest({ source: { path: cuda('vector_add.cu') },
                                                   breakpoints: [{ line: 10, condition: 'threadIdx.x == 5' },
                                                                 { line: 8, condition: 'nosuch > 1' }] });
        [bp, host] = r.body.breakpoints;
        // the program's device code is read from its file: the line is known before it runs
        assert.strictEqual(bp.verified, true);
        assert.strictEqual(bp.line, 10);
        assert.strictEqual(host.verified, false);
        assert.match(host.message, /nosuch/);
        fn = (await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'main' }] })).body.breakpoints[0];
    });
    // main is host code (a function of the program's ELF no device module has)
    assert.strictEqual(fn.verified, false);
    assert.match(fn.message, /host code/);
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

test('hitBreakpoint on a CUDA program: verified at its line before it runs, stopped there', { skip }, () => session(async dc => {
    // line 11 of the second module is `int delta = bias_b * add;`
    await dc.hitBreakpoint({ program: cuda('multi_module.G') }, { path: cuda('multi_module_b.cu'), line: 11 });
}));

for (const prog of ['multi_module.G', 'multi_module.G.static'])
test(`${prog}: breakpoints in two modules, set before launch, stop in every launch`, { skip }, () => session(async dc => {
    const verified = {};
    dc.on('breakpoint', e => {
        const b = e.body.breakpoint;
        // once resolved a breakpoint stays verified, while the other module runs too
        assert.ok(b.verified || !verified[b.id], `breakpoint ${b.id} went back to unverified`);
        verified[b.id] = verified[b.id] || b.verified;
    });
    let ids;
    const first = await L.launch(dc, { program: cuda(prog) }, async dc => {
        const a = await dc.setBreakpointsRequest({ source: { path: cuda('multi_module.cu') },
                                                   breakpoints: [{ line: 12, condition: 'i == 5' }] });
        const b = await dc.setBreakpointsRequest({ source: { path: cuda('multi_module_b.cu') },
                                                   breakpoints: [{ line: 12, condition: 'i == 7' }] });
        ids = [a.body.breakpoints[0].id, b.body.breakpoints[0].id];
    });
    // the C reference: x[i] = i; each round r: x = 2x + 100 (scale), then x -= 7r (offset)
    const x = Array.from({ length: 300 }, (_, i) => i);
    const want = [];
    for (let r = 0; r < 3; r++) {
        want.push(['scale', ids[0], String(x[5])]);
        for (let i = 0; i < 300; i++) x[i] = 2 * x[i] + 100;
        want.push(['offset', ids[1], `${x[7]} ${7 * r}`]);
        for (let i = 0; i < 300; i++) x[i] -= 7 * r;
    }
    const got = [];
    const exited = dc.waitForEvent('exited');
    for (let stop = first; stop;) {
        const f = await L.topFrame(dc, stop.body.threadId);
        const k = f.name.split(' ')[0];
        got.push([k, stop.body.hitBreakpointIds[0],
                  k === 'scale' ? await L.evaluate(dc, 'x[i]', f.id)
                                : `${await L.evaluate(dc, 'x[i]', f.id)} ${await L.evaluate(dc, 'delta', f.id)}`]);
        assert.strictEqual(f.line, 12);
        const next = new Promise(resolve => {
            const on = e => { dc.removeListener('terminated', off); resolve(e); };
            const off = () => { dc.removeListener('stopped', on); resolve(null); };
            dc.once('stopped', on);
            dc.once('terminated', off);
        });
        await dc.continueRequest({ threadId: stop.body.threadId });
        stop = await next;
    }
    assert.deepStrictEqual(got, want);
    assert.strictEqual((await exited).body.exitCode, 0);
    assert.match(dc.outputText.stdout, /multi_module: PASSED/);
}));

test('device_printf (no -G): kernel printf and host output in order, exit status 0', { skip }, () => session(async dc => {
    const exited = dc.waitForEvent('exited');
    await L.launch(dc, { program: cuda('device_printf') }, null, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 0);
    assert.strictEqual(dc.outputText.stdout, fs.readFileSync(cuda('device_printf.expected'), 'utf8'));
}));

test('spin_flag.G: a breakpoint set while the kernel runs stops it; the program then ends normally', { skip }, () => session(async dc => {
    await L.launch(dc, { program: cuda('spin_flag.G'), args: ['forever'] }, null, 'continued');
    const t = await dc.threadsRequest();  // answered while the program runs
    assert.ok(t.body.threads.length >= 1);
    const stopped = dc.waitForEvent('stopped');
    // line 13 is the spin loop's body
    const r = await dc.setBreakpointsRequest({ source: { path: cuda('spin_flag.cu') }, breakpoints: [{ line: 13 }] });
    assert.strictEqual(r.body.breakpoints[0].verified, true);
    const s = await stopped;
    assert.strictEqual(s.body.reason, 'breakpoint');
    assert.deepStrictEqual(s.body.hitBreakpointIds, [r.body.breakpoints[0].id]);
    const f = await L.topFrame(dc, s.body.threadId);
    assert.strictEqual(f.line, 13);
    await dc.setBreakpointsRequest({ source: { path: cuda('spin_flag.cu') }, breakpoints: [] });
    await L.evaluate(dc, 'set var *flag = 1', f.id, 'repl');
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 0);
    assert.match(dc.outputText.stdout, /spin_flag: PASSED/);
}));
