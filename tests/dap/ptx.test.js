// ptx.test.js - `ptxdbg --dap` on a PTX file (tests/fixtures/dap/dapk.cu built with nvcc -G),
// driven by VS Code's own adapter test client. Expected values come from dapk.cu (walkValue is
// its C reference), not from ptxdbg.
'use strict';
const test = require('node:test');
const assert = require('assert');
const L = require('./lib');

async function session(fn, ended = false) {
    const dc = await L.start();
    try {
        await fn(dc);
    } finally {
        if (ended)
            dc.stopAdapter(); // no adapter left to answer a disconnect
        else
            await dc.stop();
    }
}

const srcBp = (line, extra = {}) => dc => dc.setBreakpointsRequest({
    source: { path: L.dapk.cu }, breakpoints: [Object.assign({ line }, extra)] });

test('conditional breakpoint: stack frame with source, line and instruction pointer', () => session(async dc => {
    let bpResp;
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), async dc => {
        bpResp = await srcBp(26, { condition: 'i == 70' })(dc);
    });
    const bp = bpResp.body.breakpoints[0];
    assert.strictEqual(bp.verified, true);
    assert.strictEqual(bp.line, 26);
    assert.strictEqual(stop.body.reason, 'breakpoint');
    assert.deepStrictEqual(stop.body.hitBreakpointIds, [bp.id]);
    assert.strictEqual(stop.body.allThreadsStopped, true);
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(f.source.path, L.dapk.cu);
    assert.strictEqual(f.line, 26);
    assert.match(f.instructionPointerReference, /^0x[0-9a-f]+$/);
    assert.strictEqual(await L.evaluate(dc, 'i', f.id), '70');
    assert.strictEqual(await L.evaluate(dc, 'v', f.id), String(L.walkValue(70)));
    const t = await dc.threadsRequest();
    const me = t.body.threads.find(x => x.id === stop.body.threadId);
    assert.strictEqual(me.name, 'block (1,0,0) warp 0'); // thread 70 = block 1, thread 6
    await L.continueTo(dc, 'terminated');
}));

test('hit conditions: == 3 stops at the third hit only, as CTAs run in order', () => session(async dc => {
    // line 19 is reached once per warp: block 0 warps 0, 1, then block 1 warps 0, 1
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(19, { hitCondition: '== 3' }));
    const t = await dc.threadsRequest();
    assert.strictEqual(t.body.threads.find(x => x.id === stop.body.threadId).name,
                       'block (1,0,0) warp 0');
    await L.continueTo(dc, 'terminated');
}));

test('hit conditions: a bad one is refused and the breakpoint is not verified', () => session(async dc => {
    let r;
    await L.launch(dc, L.ptxArgs(L.walkLine), async dc => { r = await srcBp(19, { hitCondition: 'often' })(dc); },
                   'terminated');
    assert.strictEqual(r.body.breakpoints[0].verified, false);
    assert.match(r.body.breakpoints[0].message, /hit condition/);
}));

test('function breakpoint, stack of two frames, stepOut', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), dc =>
        dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'square' }] }));
    assert.strictEqual(stop.body.reason, 'function breakpoint');
    const st = await dc.stackTraceRequest({ threadId: stop.body.threadId });
    const fr = st.body.stackFrames;
    assert.strictEqual(fr.length, 2);
    assert.match(fr[0].name, /^square/);
    assert.match(fr[1].name, /^walk/);
    assert.strictEqual(fr[1].line, 24);
    // the thread squares tile[(t + 1) % 64] of its block, whose value is its index in the grid
    const t = Number(await L.evaluate(dc, 'threadIdx.x', fr[1].id));
    const b = Number(await L.evaluate(dc, 'blockIdx.x', fr[1].id));
    assert.strictEqual(await L.evaluate(dc, 'v', fr[0].id), String(b * 64 + (t + 1) % 64));
    assert.strictEqual(await L.evaluate(dc, 'i', fr[1].id), String(b * 64 + t));
    const locals = await L.scope(dc, fr[0].id, 'Locals');
    assert.ok(locals.find(v => v.name === 'v'));
    const stepped = dc.waitForEvent('stopped');
    await dc.stepOutRequest({ threadId: stop.body.threadId });
    const s2 = await stepped;
    assert.strictEqual(s2.body.reason, 'step');
    const f = await L.topFrame(dc, s2.body.threadId);
    assert.strictEqual(f.line, 24);
    assert.match(f.name, /^walk/);
}));

test('instruction breakpoint at the pc a line breakpoint resolved to', () => session(async dc => {
    let ref;
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), async dc => {
        const r = await srcBp(26)(dc);
        ref = r.body.breakpoints[0].instructionReference;
        assert.match(ref, /^0x/);
        await dc.setBreakpointsRequest({ source: { path: L.dapk.cu }, breakpoints: [] });
        const ib = await dc.customRequest('setInstructionBreakpoints',
                                          { breakpoints: [{ instructionReference: ref }] });
        assert.strictEqual(ib.body.breakpoints[0].verified, true);
    });
    assert.strictEqual(stop.body.reason, 'instruction breakpoint');
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(f.instructionPointerReference, ref);
    assert.strictEqual(f.line, 26);
}));

test('data breakpoint on global memory stops after the store', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(26, { condition: 'i == 3' }));
    const f = await L.topFrame(dc, stop.body.threadId);
    const info = await dc.dataBreakpointInfoRequest({ name: 'out[i]', frameId: f.id });
    assert.match(info.body.dataId, /^global:/);
    assert.ok(info.body.accessTypes.includes('write'));
    await dc.setBreakpointsRequest({ source: { path: L.dapk.cu }, breakpoints: [] });
    const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId, accessType: 'write' }] });
    assert.strictEqual(set.body.breakpoints[0].verified, true);
    const s2 = await L.continueTo(dc, 'stopped');
    assert.strictEqual(s2.body.reason, 'data breakpoint');
    const f2 = await L.topFrame(dc, s2.body.threadId);
    assert.strictEqual(await L.evaluate(dc, 'out[3]', f2.id), String(L.walkValue(3)));
    assert.strictEqual(await L.evaluate(dc, 'i', f2.id), '3');
}));

test('data breakpoint on shared memory stops at the lane that writes it', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(19));
    const f = await L.topFrame(dc, stop.body.threadId);
    const info = await dc.dataBreakpointInfoRequest({ name: 'tile[5]', frameId: f.id });
    assert.match(info.body.dataId, /^shared:/);
    await dc.setBreakpointsRequest({ source: { path: L.dapk.cu }, breakpoints: [] });
    await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId, accessType: 'write' }] });
    const s2 = await L.continueTo(dc, 'stopped');
    assert.strictEqual(s2.body.reason, 'data breakpoint');
    const f2 = await L.topFrame(dc, s2.body.threadId);
    assert.match(f2.name, /thread \(5,0,0\)/);
    assert.strictEqual(await L.evaluate(dc, 'tile[5]', f2.id), '5');
}));

test('scopes and variables: struct, array, registers, shared, lanes', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(24, { condition: 'i == 5' }));
    const f = await L.topFrame(dc, stop.body.threadId);
    const scopes = (await dc.scopesRequest({ frameId: f.id })).body.scopes.map(s => s.name);
    assert.deepStrictEqual(scopes, ['Locals', 'Registers', 'Shared', 'Lanes']);
    const locals = await L.scope(dc, f.id, 'Locals');
    const byName = n => locals.find(v => v.name === n);
    assert.strictEqual(byName('i').value, '5');
    assert.strictEqual(byName('n').value, '128');
    const c = byName('c');
    assert.ok(c.variablesReference > 0, 'struct expandable');
    const members = await L.variables(dc, c.variablesReference);
    assert.deepStrictEqual(members.map(m => m.name), ['id', 'w']);
    assert.strictEqual(members[0].value, '4'); // cells[1].id
    const arr = byName('arr');
    assert.strictEqual(arr.indexedVariables, 4);
    const elems = await L.variables(dc, arr.variablesReference);
    assert.deepStrictEqual(elems.map(e => e.value), ['5', '6', '7', '8']);
    const regs = await L.scope(dc, f.id, 'Registers');
    assert.ok(regs.some(r => /^%r\d+$/.test(r.name)));
    const shared = await L.scope(dc, f.id, 'Shared');
    const tile = shared.find(s => s.name === 'tile');
    assert.ok(tile && tile.indexedVariables === 64);
    const page = (await dc.variablesRequest({ variablesReference: tile.variablesReference, start: 4, count: 3 })).body.variables;
    assert.deepStrictEqual(page.map(e => e.value), ['4', '5', '6']); // after the barrier
    const lanes = await L.scope(dc, f.id, 'Lanes');
    assert.strictEqual(lanes.length, 32);
    assert.strictEqual(lanes[5].name, '*lane 5');
    assert.match(lanes[5].value, /^thread \(5,0,0\)/);
    const lane9 = await L.variables(dc, lanes[9].variablesReference);
    assert.strictEqual(lane9.find(v => v.name === 'i').value, '9');
    // setVariable, then the value reads back
    const sv = await dc.setVariableRequest({ variablesReference: arr.variablesReference, name: '[0]', value: '42' });
    assert.strictEqual(sv.body.value, '42');
    assert.strictEqual(await L.evaluate(dc, 'arr[0]', f.id), '42');
}));

test('evaluate: watch, hover, hex, repl commands and errors', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(24, { condition: 'i == 5' }));
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(await L.evaluate(dc, 'arr[2] + c.id', f.id), '11');
    assert.strictEqual(await L.evaluate(dc, 'threadIdx.x', f.id, 'hover'), '5');
    const hex = await dc.evaluateRequest({ expression: 'i + 10', frameId: f.id, context: 'watch', format: { hex: true } });
    assert.strictEqual(hex.body.result, '0xf');
    const p = await L.evaluate(dc, 'print i * 2', f.id, 'repl');
    assert.match(p, /^\$\d+ = 10$/);
    assert.match(await L.evaluate(dc, 'info cuda kernels', f.id, 'repl'), /walk/);
    assert.strictEqual(await L.evaluate(dc, 'i', f.id, 'repl'), '5'); // a variable, not `info`
    await assert.rejects(dc.evaluateRequest({ expression: 'nosuchvar + 1', frameId: f.id, context: 'watch' }),
                         /nosuchvar/);
    await assert.rejects(dc.evaluateRequest({ expression: 'frobnicate', context: 'repl' }));
}));

test('stepping by line, into a call, and by instruction', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(24, { condition: 'i == 5' }));
    const tid = stop.body.threadId;
    let s = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: tid });
    let f = await L.topFrame(dc, (await s).body.threadId);
    assert.match(f.name, /^square/);
    assert.strictEqual(f.line, 12);
    s = dc.waitForEvent('stopped');
    await dc.stepOutRequest({ threadId: tid });
    await s;
    s = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: tid });
    f = await L.topFrame(dc, (await s).body.threadId);
    assert.strictEqual(f.line, 25);
    const ip = parseInt(f.instructionPointerReference, 16);
    s = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: tid, granularity: 'instruction' });
    assert.strictEqual((await s).body.reason, 'step');
    f = await L.topFrame(dc, tid);
    assert.strictEqual(parseInt(f.instructionPointerReference, 16), ip + 1);
}));

test('warps as threads, focus switching by request and by the repl', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(22, { condition: 'threadIdx.x == 1' }));
    const t = await dc.threadsRequest();
    const names = t.body.threads.map(x => x.name);
    assert.ok(names.includes('block (0,0,0) warp 0') && names.includes('block (0,0,0) warp 1'));
    assert.ok(!names.some(n => n.startsWith('block (1,0,0)')), 'block 1 has not started');
    assert.strictEqual(new Set(t.body.threads.map(x => x.id)).size, t.body.threads.length);
    assert.ok(t.body.threads.some(x => x.id === stop.body.threadId));
    let ev = dc.waitForEvent('stopped');
    const r = await dc.customRequest('ptxdbg/focus', { block: [0, 0, 0], thread: [40, 0, 0] });
    const warp1 = t.body.threads.find(x => x.name === 'block (0,0,0) warp 1').id;
    assert.strictEqual(r.body.threadId, warp1);
    assert.strictEqual(r.body.lane, 8);
    assert.strictEqual((await ev).body.threadId, warp1);
    let f = await L.topFrame(dc, warp1);
    assert.strictEqual(await L.evaluate(dc, 'threadIdx.x', f.id), '40');
    ev = dc.waitForEvent('stopped');
    await L.evaluate(dc, 'cuda block (0,0,0) thread (3,0,0)', f.id, 'repl');
    const e2 = await ev;
    assert.strictEqual(e2.body.threadId, stop.body.threadId);
    f = await L.topFrame(dc, e2.body.threadId);
    assert.strictEqual(await L.evaluate(dc, 'threadIdx.x', f.id), '3');
    await assert.rejects(dc.customRequest('ptxdbg/focus', { block: [9, 0, 0], thread: [0, 0, 0] }));
    await assert.rejects(dc.customRequest('ptxdbg/focus', { block: 'zero' }));
}));

test('readMemory, writeMemory and disassemble', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(19));
    const f = await L.topFrame(dc, stop.body.threadId);
    const cells = await dc.evaluateRequest({ expression: 'cells', frameId: f.id, context: 'watch' });
    const ref = cells.body.memoryReference;
    assert.match(ref, /^0x/);
    const m = await dc.customRequest('readMemory', { memoryReference: ref, offset: 4, count: 12 });
    const bytes = Buffer.from(m.body.data, 'base64');
    assert.deepStrictEqual([0, 4, 8].map(o => bytes.readInt32LE(o)), [1, 2, 3]); // iota
    const w = Buffer.alloc(4);
    w.writeInt32LE(77);
    await dc.customRequest('writeMemory', { memoryReference: ref, offset: 16, data: w.toString('base64') });
    assert.strictEqual(await L.evaluate(dc, 'cells[1].id', f.id), '77');
    const bad = await dc.customRequest('readMemory', { memoryReference: '0x10', count: 8 });
    assert.strictEqual(bad.body.unreadableBytes, 8);
    const ip = parseInt(f.instructionPointerReference, 16);
    const d = await dc.disassembleRequest({ memoryReference: f.instructionPointerReference,
                                           instructionOffset: -2, instructionCount: 5 });
    const ins = d.body.instructions;
    assert.strictEqual(ins.length, 5);
    assert.strictEqual(parseInt(ins[2].address, 16), ip);
    assert.ok(ins.every(i => i.instruction.length > 0));
    const past = await dc.disassembleRequest({ memoryReference: '0x0', instructionOffset: -3, instructionCount: 4 });
    assert.deepStrictEqual(past.body.instructions.map(i => i.instruction).slice(0, 3), ['??', '??', '??']);
}));

test('a trap stops with an exception; continuing ends with a non-zero exit code', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs('boom<<<1, 32>>>(p, 7)'));
    assert.strictEqual(stop.body.reason, 'exception');
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.match(info.body.exceptionId, /^CUDA_EXCEPTION_/);
    assert.match(info.body.description, /trap/i);
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(await L.evaluate(dc, 'threadIdx.x', f.id), '7');
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 1);
}));

test('kernel printf arrives as output events', () => session(async dc => {
    const exited = dc.waitForEvent('exited');
    await L.launch(dc, L.ptxArgs('hello<<<1, 4>>>(3)'), null, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 0);
    assert.strictEqual(dc.outputText.stdout,
                       'hello from thread 0\nhello from thread 1\nhello from thread 2\n');
}));

test('stopOnEntry, then pause a spinning kernel, release it, and finish', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs('spin<<<1, 32>>>(flag)', { stopOnEntry: true }));
    assert.strictEqual(stop.body.reason, 'entry');
    const resumed = dc.waitForEvent('continued');
    await dc.continueRequest({ threadId: stop.body.threadId });
    await resumed;
    const paused = dc.waitForEvent('stopped');
    await dc.pauseRequest({ threadId: stop.body.threadId });
    const p = await paused;
    assert.strictEqual(p.body.reason, 'pause');
    const f = await L.topFrame(dc, p.body.threadId);
    assert.match(f.name, /^spin/);
    await L.evaluate(dc, 'set var flag[0] = 1', f.id, 'repl');
    await L.continueTo(dc, 'terminated');
}));

test('bad requests get error responses and the adapter stays usable', () => session(async dc => {
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({}), /program/);
    await assert.rejects(dc.launchRequest({ program: '/nonexistent/k.ptx' }));
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, kernel: 42 }), /kernel/);
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, checks: ['nosuchcheck'] }), /nosuchcheck/);
    await assert.rejects(dc.customRequest('frobnicate', {}), /Unrecognized/);
    await assert.rejects(dc.stackTraceRequest({ threadId: 'x' }));
    await assert.rejects(dc.variablesRequest({ variablesReference: 999 }));
    await assert.rejects(dc.customRequest('readMemory', { memoryReference: 'nowhere', count: 4 }));
    // malformed frames and bodies on the raw stream, then a good request still works
    const raw = dc._adapterProcess.stdin;
    raw.write('Content-Length: 7\r\n\r\n{"bad":');
    raw.write('Content-Length: x\r\n\r\n');
    raw.write('Content-Length: 2\r\n\r\n[]');
    const t = await dc.threadsRequest();
    assert.ok(Array.isArray(t.body.threads));
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), srcBp(26, { condition: 'i == 1' }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
}));

test('disconnect while a kernel runs ends the adapter', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs('spin<<<1, 32>>>(flag)', { stopOnEntry: true }));
    await dc.continueRequest({ threadId: stop.body.threadId });
    const gone = new Promise(resolve => dc._adapterProcess.on('exit', code => resolve(code)));
    await dc.disconnectRequest({ terminateDebuggee: true });
    assert.strictEqual(await gone, 0);
}, true));
