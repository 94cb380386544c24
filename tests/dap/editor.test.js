// editor.test.js - `ptxdbg --dap` driven as editors drive adapters (VS Code's request shapes,
// nvim-dap's, and the DAP specification's edge cases), on tests/fixtures/dap/dapk.cu (nvcc -G).
// Expected values come from the kernels' C semantics (comments say how), not from ptxdbg.
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
            dc.stopAdapter();
        else
            await dc.stop();
    }
}

// deep<<<1, 32>>>(out, vals) with vals = {0, 1}: thread t's loop adds vals[k % 2] + t for
// k = 0..3, so acc = 2 + 4t, and mid(acc) = (3 * acc + 1) * 2.
const deepSetup = ['buffer out s32 64', 'buffer vals s32 2 = iota'];
const deepArgs = (extra = {}) => Object.assign({ program: L.dapk.ptx, setupCommands: deepSetup,
                                                 kernel: 'deep<<<1, 32>>>(out, vals)' }, extra);
const LOOP = 89, SCALED = 63, LEAF_CALL = 68, MID_CALL = 74, DEEP_CALL = 90;

const bp = (line, extra = {}) => Object.assign({ line }, extra);
const setBps = (dc, bps, path = L.dapk.cu) =>
    dc.setBreakpointsRequest({ source: { path }, breakpoints: bps });

// the next stopped event, or null at terminated (no timer is left behind: a pending one keeps
// the test process alive)
function stopOrEnd(dc) {
    return new Promise((resolve, reject) => {
        const done = v => {
            clearTimeout(timer);
            dc.removeListener('stopped', onStop);
            dc.removeListener('terminated', onEnd);
            resolve(v);
        };
        const onStop = e => done(e), onEnd = () => done(null);
        const timer = setTimeout(() => reject(new Error('no stopped or terminated event')), dc.defaultTimeout);
        dc.once('stopped', onStop);
        dc.once('terminated', onEnd);
    });
}

// continue until the kernel ends, collecting f(stop) at every stop
async function collect(dc, first, f) {
    const got = [];
    for (let stop = first; stop;) {
        got.push(await f(stop));
        const next = stopOrEnd(dc);
        await dc.continueRequest({ threadId: stop.body.threadId });
        stop = await next;
    }
    return got;
}

const evalIn = async (dc, stop, expr) => L.evaluate(dc, expr, (await L.topFrame(dc, stop.body.threadId)).id);

test('hitBreakpoint: a breakpoint on a line without code moves to the next line with code', () => session(async dc => {
    // line 17 is walk's opening brace; the first statement with code is line 19
    await dc.hitBreakpoint(L.ptxArgs(L.walkLine), { path: L.dapk.cu, line: 17 },
                           { path: L.dapk.cu, line: 19 }, { path: L.dapk.cu, line: 19, verified: true });
}));

test('every hit-condition form an editor user types, on a loop line reached 4 times', async () => {
    // hit n of line 89 is loop iteration k = n - 1 (one warp)
    const forms = { '3': n => n >= 3, '>= 3': n => n >= 3, '>3': n => n > 3, '> 2': n => n > 2,
                    '== 2': n => n === 2, '=2': n => n === 2, '< 2': n => n < 2, '<= 2': n => n <= 2,
                    '% 2': n => n % 2 === 0, '%3': n => n % 3 === 0, ' != 1 ': n => n !== 1 };
    for (const [hc, holds] of Object.entries(forms)) {
        await session(async dc => {
            const want = [1, 2, 3, 4].filter(holds).map(n => String(n - 1));
            let resp;
            const first = await L.launch(dc, deepArgs(), async dc => { resp = await setBps(dc, [bp(LOOP, { hitCondition: hc })]); },
                                         want.length ? 'stopped' : 'terminated');
            assert.strictEqual(resp.body.breakpoints[0].verified, true, hc);
            const ks = want.length ? await collect(dc, first, s => evalIn(dc, s, 'k')) : [];
            assert.deepStrictEqual(ks, want, `hitCondition ${JSON.stringify(hc)}`);
        });
    }
});

test('conditions with built-ins and source variables, combined with a hit condition', () => session(async dc => {
    // thread 5 stands at line 89 with acc = sum of (j % 2 + 5) over the iterations j before k:
    // 0, 5, 11, 16. The condition holds at k = 1, 2, 3 (hits 1, 2, 3); "% 2" keeps hit 2.
    const first = await L.launch(dc, deepArgs(), dc =>
        setBps(dc, [bp(LOOP, { condition: 'threadIdx.x == 5 && acc >= 5', hitCondition: '% 2' })]));
    const accAt = k => { let a = 0; for (let j = 0; j < k; j++) a += j % 2 + 5; return a; };
    const want = [0, 1, 2, 3].filter(k => accAt(k) >= 5).filter((k, n) => (n + 1) % 2 === 0);
    const got = await collect(dc, first, async s => [await evalIn(dc, s, 'k'), await evalIn(dc, s, 'threadIdx.x')]);
    assert.deepStrictEqual(got, want.map(k => [String(k), '5']));
}));

test('setBreakpoints replaces and clears a source\'s list; other folders match by file name', () => session(async dc => {
    const elsewhere = '/somewhere/else/src/dapk.cu';
    const first = await L.launch(dc, L.ptxArgs(L.walkLine), async dc => {
        await setBps(dc, [bp(19), bp(25)]);
        const r = await setBps(dc, [bp(25, { condition: 'i == 66' })], L.dapk.cu);  // replaces 19
        assert.strictEqual(r.body.breakpoints.length, 1);
        const o = await setBps(dc, [bp(27, { condition: 'i == 3' })], elsewhere);
        assert.strictEqual(o.body.breakpoints[0].verified, true);
        assert.strictEqual(o.body.breakpoints[0].source.path, elsewhere);
    });
    // i == 3 (block 0) stops first: the file is shown as the path the breakpoint named
    let f = await L.topFrame(dc, first.body.threadId);
    assert.strictEqual(f.line, 27);
    assert.strictEqual(f.source.path, elsewhere);
    await setBps(dc, [], elsewhere);
    const s2 = await L.continueTo(dc, 'stopped');
    f = await L.topFrame(dc, s2.body.threadId);
    assert.strictEqual(f.line, 25);
    assert.strictEqual(await L.evaluate(dc, 'i', f.id), '66');
    await setBps(dc, [], L.dapk.cu);
    await L.continueTo(dc, 'terminated');
}));

test('bad breakpoints fail one by one (reason "failed"); the good ones of the request are set', () => session(async dc => {
    let r, fr, ir;
    await L.launch(dc, L.ptxArgs(L.walkLine), async dc => {
        r = await setBps(dc, [bp(500), bp(25, { condition: 'nosuchvar > 1' }), { line: 'x' },
                              bp(25, { hitCondition: 'sometimes' }), bp(26)]);
        fr = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'nosuch' }, { name: '' }, { name: '_Z6squarei' }] });
        ir = await dc.customRequest('setInstructionBreakpoints', { breakpoints: [{ instructionReference: 'zz' }, { instructionReference: '0x7fffffff' }] });
        // clear them all again: the kernel runs to its end
        await setBps(dc, []);
        await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
        await dc.customRequest('setInstructionBreakpoints', { breakpoints: [] });
    }, 'terminated');
    assert.deepStrictEqual(r.body.breakpoints.map(b => b.verified), [false, false, false, false, true]);
    for (const b of r.body.breakpoints.slice(0, 4)) {
        assert.strictEqual(b.reason, 'failed');
        assert.ok(b.message.length > 0);
    }
    assert.match(r.body.breakpoints[1].message, /nosuchvar/);
    assert.deepStrictEqual(fr.body.breakpoints.map(b => b.verified), [false, false, true]);
    assert.strictEqual(fr.body.breakpoints[2].line, 12);  // square's first statement
    assert.deepStrictEqual(ir.body.breakpoints.map(b => b.verified), [false, false]);
}));

test('function breakpoints on a template by its demangled, mangled and signature names', () => session(async dc => {
    let r;
    // v == 2 + 4t reaches scaled<3>: t = 6 gives 26
    const stop = await L.launch(dc, deepArgs(), async dc => {
        r = await dc.setFunctionBreakpointsRequest({ breakpoints: [
            { name: 'scaled<3>', condition: 'v == 26' }, { name: '_Z6scaledILi3EEii', condition: 'v == 26' },
            { name: 'int scaled<3>(int)', condition: 'v == 26' }] });
    });
    assert.ok(r.body.breakpoints.every(b => b.verified && b.line === SCALED));
    assert.strictEqual(stop.body.reason, 'function breakpoint');
    assert.deepStrictEqual(stop.body.hitBreakpointIds.slice().sort(), r.body.breakpoints.map(b => b.id).sort());
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.match(f.name, /^scaled<3> \(thread \(6,0,0\), lane 6\)/);
    assert.strictEqual(await L.evaluate(dc, 'v', f.id), '26');
}));

test('stackTrace paging (startFrame, levels, totalFrames) through four frames', () => session(async dc => {
    const stop = await L.launch(dc, deepArgs(), dc => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scaled<3>' }] }));
    const tid = stop.body.threadId;
    const all = (await dc.stackTraceRequest({ threadId: tid })).body;
    assert.strictEqual(all.totalFrames, 4);
    assert.deepStrictEqual(all.stackFrames.map(f => f.name.split(' ')[0]), ['scaled<3>', 'leaf', 'mid', 'deep']);
    assert.deepStrictEqual(all.stackFrames.map(f => f.line), [SCALED, LEAF_CALL, MID_CALL, DEEP_CALL]);
    assert.ok(all.stackFrames.every(f => /^0x[0-9a-f]+$/.test(f.instructionPointerReference)));
    const page = (await dc.stackTraceRequest({ threadId: tid, startFrame: 1, levels: 2 })).body;
    assert.deepStrictEqual(page.stackFrames.map(f => f.name), ['leaf', 'mid']);
    assert.strictEqual(page.totalFrames, 4);
    assert.strictEqual((await dc.stackTraceRequest({ threadId: tid, startFrame: 4 })).body.stackFrames.length, 0);
    assert.strictEqual((await dc.stackTraceRequest({ threadId: tid, levels: 0 })).body.stackFrames.length, 4);
    // StackFrameFormat (supportsValueFormattingOptions): arguments, line, module
    const fmt = (await dc.stackTraceRequest({ threadId: tid, format: { parameters: true, parameterTypes: true, line: true, hex: true } })).body.stackFrames;
    assert.match(fmt[1].name, /^leaf\(int v=0x2\) Line 68$/);
    assert.match(fmt[3].name, /^deep\(int \* out=.*0x[0-9a-f]+, const int \* vals=.*\) Line 90$/);
    const mod = (await dc.stackTraceRequest({ threadId: tid, startFrame: 2, levels: 1, format: { module: true } })).body.stackFrames;
    assert.strictEqual(mod[0].name, 'mid [dapk.G.ptx]');
    // every frame evaluates in its own scope: v in scaled, t in deep
    assert.strictEqual(await L.evaluate(dc, 'v', all.stackFrames[0].id), '2');
    assert.strictEqual(await L.evaluate(dc, 't', all.stackFrames[3].id), '0');
}));

test('variables: a struct with an array of structs and a pointer, paging, filters, evaluateName', () => session(async dc => {
    const stop = await L.launch(dc, deepArgs(), dc => setBps(dc, [bp(DEEP_CALL, { condition: 'threadIdx.x == 3' })]));
    const f = await L.topFrame(dc, stop.body.threadId);
    const locals = await L.scope(dc, f.id, 'Locals');
    const byName = n => locals.find(v => v.name === n);
    assert.strictEqual(byName('acc').value, String(2 + 4 * 3));
    const nd = byName('nd');
    assert.ok(nd.variablesReference > 0);
    const members = await L.variables(dc, nd.variablesReference);
    assert.deepStrictEqual(members.map(m => m.name), ['p', 'ref']);
    const p = members[0];
    assert.strictEqual(p.indexedVariables, 2);
    // filters: an array has elements only, a struct members only
    assert.strictEqual((await dc.variablesRequest({ variablesReference: p.variablesReference, filter: 'named' })).body.variables.length, 0);
    assert.strictEqual((await dc.variablesRequest({ variablesReference: nd.variablesReference, filter: 'indexed' })).body.variables.length, 0);
    const second = (await dc.variablesRequest({ variablesReference: p.variablesReference, filter: 'indexed', start: 1, count: 1 })).body.variables;
    assert.deepStrictEqual(second.map(v => v.name), ['[1]']);
    const pair = await L.variables(dc, second[0].variablesReference);
    assert.deepStrictEqual(pair.map(v => [v.name, v.value]), [['k', '1'], ['w', '1.5']]);
    // evaluateName round-trips through evaluate in every context
    for (const v of [...pair, second[0], members[1]])
        for (const context of ['watch', 'hover', 'clipboard', 'variables'])
            assert.strictEqual((await dc.evaluateRequest({ expression: v.evaluateName, frameId: f.id, context })).body.result, v.value);
    // the pointer expands to what it points to: out[3], not written yet
    const ref = await L.variables(dc, members[1].variablesReference);
    assert.strictEqual(ref.length, 1);
    assert.strictEqual(ref[0].value, '0');
    assert.strictEqual(await L.evaluate(dc, ref[0].evaluateName + ' == out[3]', f.id), '1');
}));

test('evaluate with format.hex, setExpression and setVariable, and stale references after a resume', () => session(async dc => {
    // thread 4 before its first iteration: nd.p[1].k set to 10 makes acc = 0 + 10 + 0 + 10 + 4 * 4
    const stop = await L.launch(dc, deepArgs(), dc => setBps(dc, [bp(LOOP, { condition: 'threadIdx.x == 4 && k == 0' })]));
    const f = await L.topFrame(dc, stop.body.threadId);
    const hex = await dc.evaluateRequest({ expression: 't * 3', frameId: f.id, context: 'watch', format: { hex: true } });
    assert.strictEqual(hex.body.result, '0xc');
    const se = await dc.customRequest('setExpression', { expression: 'nd.p[1].k', value: '10', frameId: f.id });
    assert.strictEqual(se.body.value, '10');
    const locals = await L.scope(dc, f.id, 'Locals');
    const nd = locals.find(v => v.name === 'nd');
    const p = (await L.variables(dc, nd.variablesReference))[0];
    const pair0 = (await L.variables(dc, p.variablesReference))[0];
    const sv = await dc.setVariableRequest({ variablesReference: pair0.variablesReference, name: 'w', value: '2.5' });
    assert.strictEqual(sv.body.value, '2.5');
    assert.strictEqual(await L.evaluate(dc, 'nd.p[0].w * 2', f.id), '5');
    await assert.rejects(dc.setVariableRequest({ variablesReference: pair0.variablesReference, name: 'w', value: '2.5 +' }));
    await assert.rejects(dc.setVariableRequest({ variablesReference: pair0.variablesReference, name: 'nosuch', value: '1' }));
    await assert.rejects(dc.customRequest('setExpression', { expression: 't + 1', value: '3', frameId: f.id }));
    await L.continueTo(dc, 'terminated');
    await assert.rejects(dc.variablesRequest({ variablesReference: nd.variablesReference }), /variablesReference/);
    const acc = 0 + 10 + 0 + 10 + 4 * 4;
    assert.strictEqual(await L.evaluate(dc, 'out[4]', undefined, 'repl'), String((3 * acc + 1) * 2));
}));

test('stepping: instruction granularity, stepIn/stepOut through the call chain, stepOut refused at the kernel', () => session(async dc => {
    const stop = await L.launch(dc, deepArgs(), dc => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'leaf' }] }));
    const tid = stop.body.threadId;
    let f = await L.topFrame(dc, tid);
    assert.strictEqual(f.line, LEAF_CALL);
    const step = async (req, args = {}) => {
        const ev = dc.waitForEvent('stopped');
        await dc.customRequest(req, Object.assign({ threadId: tid }, args));
        const e = await ev;
        assert.strictEqual(e.body.reason, 'step');
        return L.topFrame(dc, e.body.threadId);
    };
    const ip = parseInt(f.instructionPointerReference, 16);
    f = await step('next', { granularity: 'instruction' });
    assert.strictEqual(parseInt(f.instructionPointerReference, 16), ip + 1);
    f = await step('stepIn', { granularity: 'line' });
    assert.match(f.name, /^scaled<3>/);
    f = await step('stepOut');
    assert.match(f.name, /^leaf/);
    f = await step('stepOut', { granularity: 'instruction' });
    assert.match(f.name, /^mid/);
    f = await step('stepOut', { singleThread: true });
    assert.match(f.name, /^deep/);
    assert.strictEqual(f.line, DEEP_CALL);
    await assert.rejects(dc.stepOutRequest({ threadId: tid }), /outermost/);
    await assert.rejects(dc.stepInRequest({ threadId: tid, granularity: 'sideways' }), /granularity/);
    await assert.rejects(dc.nextRequest({ threadId: 12345 }), /thread/);
    f = await step('next');  // still usable
    assert.strictEqual(f.line, 91);
}));

test('data breakpoints: info on variables, members, registers and addresses; read access', () => session(async dc => {
    const stop = await L.launch(dc, deepArgs({ stopOnEntry: true }));
    assert.strictEqual(stop.body.reason, 'entry');
    const f = await L.topFrame(dc, stop.body.threadId);
    const scopes = (await dc.scopesRequest({ frameId: f.id })).body.scopes;
    const regs = await L.variables(dc, scopes.find(s => s.name === 'Registers').variablesReference);
    const r = await dc.dataBreakpointInfoRequest({ name: regs[0].name, variablesReference: scopes[1].variablesReference });
    assert.strictEqual(r.body.dataId, null);
    assert.match(r.body.description, /register/);
    const t = await dc.dataBreakpointInfoRequest({ name: 'threadIdx.x', frameId: f.id });
    assert.strictEqual(t.body.dataId, null);
    assert.ok(t.body.description.length > 0);
    const whole = await dc.dataBreakpointInfoRequest({ name: 'nd', frameId: f.id });
    assert.strictEqual(whole.body.dataId, null);  // 24 bytes: too wide to watch
    const member = await dc.dataBreakpointInfoRequest({ name: 'nd.p[1].k', frameId: f.id });
    assert.match(member.body.dataId, /^local:/);
    const addr = await dc.dataBreakpointInfoRequest({ name: (await dc.evaluateRequest({ expression: '&vals[1]', frameId: f.id })).body.result.replace(/^\(.*\) /, ''),
                                                     asAddress: true, bytes: 4 });
    assert.match(addr.body.dataId, /^global:/);
    const vals1 = await dc.dataBreakpointInfoRequest({ name: 'vals[1]', frameId: f.id });
    assert.deepStrictEqual(vals1.body.accessTypes.slice().sort(), ['read', 'readWrite', 'write']);
    const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: vals1.body.dataId, accessType: 'read' }, { dataId: 'bogus' }] });
    assert.deepStrictEqual(set.body.breakpoints.map(b => b.verified), [true, false]);
    // line 84 reads vals[1]: the read stops there, before its value is stored in nd.p[1].k
    const s2 = await L.continueTo(dc, 'stopped');
    assert.strictEqual(s2.body.reason, 'data breakpoint');
    assert.deepStrictEqual(s2.body.hitBreakpointIds, [set.body.breakpoints[0].id]);
    assert.strictEqual((await L.topFrame(dc, s2.body.threadId)).line, 84);
}));

test('exceptions: an out-of-range store and a failed assertion', () => session(async dc => {
    const stop = await L.launch(dc, deepArgs({ kernel: 'oob<<<1, 4>>>(out, 1048576)' }));
    assert.strictEqual(stop.body.reason, 'exception');
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.strictEqual(info.body.exceptionId, 'CUDA_EXCEPTION_5');
    assert.strictEqual(info.body.breakMode, 'always');
    assert.match(info.body.description, /Out-of-range.*dapk\.cu:96.*thread \(1,0,0\)/);
    assert.match(info.body.details.stackTrace, /oob/);
    const f = await L.topFrame(dc, stop.body.threadId);
    assert.strictEqual(f.line, 96);
    await assert.rejects(dc.nextRequest({ threadId: 999 }));
    const exited = dc.waitForEvent('exited');
    await L.continueTo(dc, 'terminated');
    assert.strictEqual((await exited).body.exitCode, 1);
}).then(() => session(async dc => {
    const stop = await L.launch(dc, { program: L.dapk.ptx, kernel: 'check<<<1, 8>>>(3)' });
    const info = await dc.exceptionInfoRequest({ threadId: stop.body.threadId });
    assert.strictEqual(info.body.exceptionId, 'CUDA_EXCEPTION_12');
    assert.match(info.body.details.message, /Assertion `threadIdx.x != bad` failed/);
    assert.match(info.body.description, /thread \(3,0,0\)/);
    const st = (await dc.stackTraceRequest({ threadId: stop.body.threadId })).body.stackFrames;
    assert.strictEqual(st[st.length - 1].line, 104);
})));

test('printf of several kernels, then exited before terminated', () => session(async dc => {
    const order = [];
    dc.on('output', e => { if (e.body.category === 'stdout') order.push(e.body.output); });
    dc.on('exited', e => order.push(`exited ${e.body.exitCode}`));
    dc.on('terminated', () => order.push('terminated'));
    await L.launch(dc, { program: L.dapk.ptx, kernel: ['hello<<<1, 2>>>(2)', 'hello<<<1, 3>>>(1)'] }, null, 'terminated');
    assert.deepStrictEqual(order.join('').replace(/exited 0/, '|exited 0|'),
                           'hello from thread 0\nhello from thread 1\nhello from thread 0\n|exited 0|terminated');
}));

test('while a kernel runs: threads, breakpoints and pause are served, inspection is refused', () => session(async dc => {
    await L.launch(dc, { program: L.dapk.ptx, setupCommands: ['buffer flag s32 4'], kernel: 'spin<<<2, 64>>>(flag)' }, null, 'continued');
    // the warps in flight when the request comes (block 1 may not have started yet)
    const t = (await dc.threadsRequest()).body.threads.map(x => x.name);
    const all = ['block (0,0,0) warp 0', 'block (0,0,0) warp 1', 'block (1,0,0) warp 0', 'block (1,0,0) warp 1'];
    assert.ok(t.length > 0 && t.every(n => all.includes(n)), t.join(', '));
    await assert.rejects(dc.stackTraceRequest({ threadId: 1 }), /running/);
    await assert.rejects(dc.evaluateRequest({ expression: 'flag[0]', context: 'repl' }), /running/);
    await assert.rejects(dc.continueRequest({ threadId: 1 }), /running/);
    // the loop's load: a breakpoint set now stops the running kernel there (block 1 only)
    const dis = (await dc.disassembleRequest({ memoryReference: '0x0', instructionCount: 4000 })).body.instructions;
    const load = dis.find(i => /^ld\.volatile/.test(i.instruction));
    const stopped = dc.waitForEvent('stopped');
    const ib = await dc.customRequest('setInstructionBreakpoints', { breakpoints: [{ instructionReference: load.address, condition: 'blockIdx.x == 1' }] });
    assert.strictEqual(ib.body.breakpoints[0].verified, true);
    const s = await stopped;
    assert.strictEqual(s.body.reason, 'instruction breakpoint');
    assert.strictEqual(await evalIn(dc, s, 'blockIdx.x'), '1');
    await dc.customRequest('setInstructionBreakpoints', { breakpoints: [] });
    await dc.continueRequest({ threadId: s.body.threadId });
    const paused = dc.waitForEvent('stopped');
    await dc.pauseRequest({ threadId: (await dc.threadsRequest()).body.threads[0].id });
    assert.strictEqual((await paused).body.reason, 'pause');
    await L.evaluate(dc, 'set var flag[0] = 1', undefined, 'repl');
    await L.continueTo(dc, 'terminated');
}));

test('focus: ptxdbg/focus and the repl move the lane; an unstarted block is refused', () => session(async dc => {
    // line 22 comes before the barrier: warp 1 has not finished yet
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [bp(22, { condition: 'threadIdx.x == 0' })]));
    let ev = dc.waitForEvent('stopped');
    const r = await dc.customRequest('ptxdbg/focus', { thread: [40, 0, 0] });
    assert.strictEqual(r.body.lane, 8);  // thread 40 = warp 1 lane 8
    const e = await ev;
    assert.strictEqual(e.body.reason, 'focus');
    assert.strictEqual(await evalIn(dc, e, 'threadIdx.x'), '40');
    await assert.rejects(dc.customRequest('ptxdbg/focus', { block: [1, 0, 0], thread: [0, 0, 0] }));
    await assert.rejects(dc.customRequest('ptxdbg/focus', { thread: [64, 0, 0] }));
    await assert.rejects(dc.customRequest('ptxdbg/focus', {}));
    ev = dc.waitForEvent('stopped');
    await L.evaluate(dc, 'cuda thread (7,0,0)', undefined, 'repl');
    const e2 = await ev;
    assert.strictEqual(e2.body.threadId, stop.body.threadId);
    assert.strictEqual(await evalIn(dc, e2, 'threadIdx.x'), '7');
}));

test('logpoints print and go on; memory reads skip unreadable bytes; partial writes', () => session(async dc => {
    const lines = [];
    dc.on('output', e => { if (e.body.category === 'console' && /^tile /.test(e.body.output)) lines.push(e.body.output); });
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [
        bp(25, { logMessage: 'tile {threadIdx.x}: {tile[threadIdx.x]}', condition: 'blockIdx.x == 0 && threadIdx.x < 2' }),
        bp(26, { condition: 'i == 1' })]));
    // warps 0 and 1 of block 0 reach line 25 first; the logpoint's lane is the first that holds
    assert.deepStrictEqual(lines, ['tile 0: 0\n']);
    const f = await L.topFrame(dc, stop.body.threadId);
    const out = (await dc.evaluateRequest({ expression: 'out', frameId: f.id })).body.memoryReference;
    const base = BigInt(out);
    // 8 bytes before out are no memory: the read says to skip them
    const before = await dc.customRequest('readMemory', { memoryReference: out, offset: -8, count: 16 });
    assert.strictEqual(before.body.unreadableBytes, 8);
    assert.strictEqual(before.body.data, '');
    assert.strictEqual(BigInt(before.body.address), base - 8n);
    // across the end of out[128]
    const end = await dc.customRequest('readMemory', { memoryReference: out, offset: 128 * 4 - 4, count: 12 });
    assert.strictEqual(Buffer.from(end.body.data, 'base64').length, 4);
    assert.strictEqual(end.body.unreadableBytes, 8);
    const w = await dc.customRequest('writeMemory', { memoryReference: out, offset: 128 * 4 - 4, allowPartial: true,
                                                      data: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]).toString('base64') });
    assert.strictEqual(w.body.bytesWritten, 4);
    await assert.rejects(dc.customRequest('writeMemory', { memoryReference: out, offset: 128 * 4 - 4,
                                                           data: Buffer.alloc(8).toString('base64') }));
    assert.strictEqual(await L.evaluate(dc, 'out[127]', f.id), String(0x04030201));
}));

test('disassemble: negative offsets before the first instruction, past the end, locations', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [bp(25)]));
    const f = await L.topFrame(dc, stop.body.threadId);
    const ip = parseInt(f.instructionPointerReference, 16);
    const d = (await dc.disassembleRequest({ memoryReference: f.instructionPointerReference, offset: 0,
                                            instructionOffset: -ip - 2, instructionCount: ip + 5, resolveSymbols: true })).body.instructions;
    assert.strictEqual(d.length, ip + 5);
    assert.ok(d.every(i => /^0x[0-9a-f]+$/.test(i.address)), 'addresses are unsigned hex');
    assert.deepStrictEqual(d.slice(0, 2).map(i => i.presentationHint), ['invalid', 'invalid']);
    assert.strictEqual(parseInt(d[ip + 2].address, 16), ip);
    assert.strictEqual(d[ip + 2].location.path, L.dapk.cu);
    assert.strictEqual(d[ip + 2].line, 25);
    const n = (await dc.disassembleRequest({ memoryReference: '0x0', instructionCount: 2000 })).body.instructions;
    const last = n.findIndex(i => i.presentationHint === 'invalid');
    assert.ok(last > 0 && n.slice(last).every(i => i.presentationHint === 'invalid'));
    await assert.rejects(dc.disassembleRequest({ memoryReference: '@shared 0x0', instructionCount: 2 }));
}));

test('bad arguments of every request get errors and the adapter stays usable', () => session(async dc => {
    await assert.rejects(dc.threadsRequest(), /initialize/);
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx }), /initialize/);
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, kernel: 'nosuch<<<1, 1>>>()' }), /nosuch/);
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, kernel: 'walk<<<1, 1>>>(1, 2)' }), /takes 3 arguments, 2 given/);
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, kernel: 'walk(1, 2, 3)' }), /launch line/);
    await assert.rejects(dc.launchRequest({ program: L.dapk.ptx, stopOnEntry: 'yes' }), /stopOnEntry/);
    await assert.rejects(dc.launchRequest({ program: 42 }), /program/);
    await dc.customRequest('cancel', { requestId: 1 });
    const stop = await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [bp(25, { condition: 'i == 2' })]));
    const tid = stop.body.threadId;
    const bad = [
        ['stackTrace', { threadId: 999 }], ['stackTrace', { threadId: 'x' }], ['stackTrace', {}],
        ['scopes', { frameId: 777 }], ['scopes', { frameId: 'x' }],
        ['variables', { variablesReference: 'x' }], ['variables', { variablesReference: -1 }],
        ['variables', { variablesReference: 1, filter: 'odd' }],
        ['evaluate', {}], ['evaluate', { expression: 'i', frameId: 999 }], ['evaluate', { expression: 'i +', context: 'watch' }],
        ['setVariable', { variablesReference: 999, name: 'i', value: '1' }], ['setVariable', {}],
        ['setExpression', { expression: 'i' }],
        ['setBreakpoints', { source: {} }], ['setBreakpoints', { source: { path: L.dapk.cu }, breakpoints: 3 }],
        ['setFunctionBreakpoints', { breakpoints: 'walk' }], ['setDataBreakpoints', {}],
        ['setInstructionBreakpoints', { breakpoints: {} }],
        ['dataBreakpointInfo', {}], ['dataBreakpointInfo', { name: '0x10', asAddress: true }],
        ['readMemory', { memoryReference: '0x0' }], ['readMemory', { memoryReference: 'nowhere', count: 4 }],
        ['readMemory', { memoryReference: '0x0', count: -1 }], ['readMemory', { memoryReference: '0x0', count: 1e12 }],
        ['writeMemory', { memoryReference: '0x0' }], ['writeMemory', { memoryReference: '0x0', data: '!!' }],
        ['disassemble', { memoryReference: '0x0' }], ['disassemble', { memoryReference: '0x0', instructionCount: 1e9 }],
        ['continue', { threadId: 'x' }], ['next', { threadId: 999 }], ['stepIn', { threadId: 1, granularity: 7 }],
        ['exceptionInfo', { threadId: tid }], ['ptxdbg/focus', { block: 'zero' }], ['ptxdbg/focus', { thread: [1, 2, 3, 4] }],
        ['launch', { program: L.dapk.ptx }], ['configurationDone', {}], ['attach', {}], ['restart', {}],
        ['frobnicate', {}], ['cancel', { requestId: 'x' }],
    ];
    for (const [cmd, args] of bad)
        await assert.rejects(dc.customRequest(cmd, args), e => e.message.length > 0, `${cmd} ${JSON.stringify(args)}`);
    // a huge count is served in bounded pages
    const sc = (await dc.scopesRequest({ frameId: (await L.topFrame(dc, tid)).id })).body.scopes;
    const v = await dc.variablesRequest({ variablesReference: sc[0].variablesReference, start: 0, count: 2147483647 });
    assert.ok(v.body.variables.length > 0);
    assert.strictEqual(await evalIn(dc, stop, 'i'), '2');
    await L.continueTo(dc, 'terminated');
}));

test('disconnect without terminating while stopped, and terminate then disconnect', () => session(async dc => {
    await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [bp(25)]));
    const gone = new Promise(resolve => dc._adapterProcess.on('exit', code => resolve(code)));
    await dc.disconnectRequest({ terminateDebuggee: false, restart: false });
    assert.strictEqual(await gone, 0);
}, true).then(() => session(async dc => {
    await L.launch(dc, L.ptxArgs(L.walkLine), dc => setBps(dc, [bp(25)]));
    const events = [];
    dc.on('exited', () => events.push('exited'));
    const term = dc.waitForEvent('terminated');
    await dc.terminateRequest({});
    await term;
    assert.deepStrictEqual(events, ['exited']);
    await assert.rejects(dc.stackTraceRequest({ threadId: 1 }));
})));

test('debug console: completions, and commands reported by what they did (step, run, kill, quit)', () => session(async dc => {
    const stop = await L.launch(dc, L.ptxArgs([L.walkLine, L.walkLine]), dc => setBps(dc, [bp(25, { condition: 'i == 3' })]));
    const f = await L.topFrame(dc, stop.body.threadId);
    const labels = async (text, column) =>
        (await dc.customRequest('completions', { text, column, frameId: f.id })).body.targets.map(t => t.label);
    assert.deepStrictEqual(await labels('inf', 4), ['info']);
    assert.ok((await labels('print ar', 9)).includes('arr'));
    assert.deepStrictEqual(await labels('p c.', 5), ['c.id', 'c.w']);
    const t = (await dc.customRequest('completions', { text: 'p c.', column: 5, frameId: f.id })).body.targets[0];
    assert.deepStrictEqual([t.start, t.length], [3, 2]);  // replaces "c." (1-based columns)
    await assert.rejects(dc.customRequest('completions', { text: 'p', column: 9 }));
    const src = await dc.customRequest('source', { source: { path: L.dapk.cu } });
    assert.match(src.body.content, /__global__ void walk/);
    // `next` typed in the console is a step
    let ev = dc.waitForEvent('stopped');
    await L.evaluate(dc, 'next', f.id, 'repl');
    const e = await ev;
    assert.strictEqual(e.body.reason, 'step');
    assert.strictEqual((await L.topFrame(dc, e.body.threadId)).line, 26);
    // `kill` ends this kernel: the next one of the launch runs and stops at the breakpoint
    ev = dc.waitForEvent('stopped');
    await L.evaluate(dc, 'kill', undefined, 'repl');
    const e2 = await ev;
    assert.strictEqual(e2.body.reason, 'breakpoint');
    assert.strictEqual(await evalIn(dc, e2, 'i'), '3');
    // `quit` ends the session
    const exited = dc.waitForEvent('exited');
    const term = dc.waitForEvent('terminated');
    await L.evaluate(dc, 'quit', undefined, 'repl');
    await exited;
    await term;
}));

test('noDebug (Run Without Debugging): breakpoints are not set, a trap ends the kernel with status 1', () => session(async dc => {
    let r;
    const exited = dc.waitForEvent('exited');
    await L.launch(dc, L.ptxArgs('boom<<<1, 32>>>(p, 7)', { noDebug: true, stopOnEntry: true }),
                   async dc => { r = await setBps(dc, [bp(39)]); }, 'terminated');
    assert.strictEqual(r.body.breakpoints[0].verified, false);
    assert.strictEqual((await exited).body.exitCode, 1);
    assert.match(dc.outputText.stderr, /trap.*thread \(7,0,0\)/);
}));

test('breakpoints set before launch (nvim-dap may) are pending, then resolve at launch', () => session(async dc => {
    await dc.initializeRequest();
    const r = await setBps(dc, [bp(17)]);
    assert.strictEqual(r.body.breakpoints[0].verified, false);
    assert.strictEqual(r.body.breakpoints[0].reason, 'pending');
    const changed = dc.waitForEvent('breakpoint');
    const stopped = dc.waitForEvent('stopped');
    await dc.launchRequest(L.ptxArgs(L.walkLine));
    const c = (await changed).body;
    assert.deepStrictEqual([c.reason, c.breakpoint.id, c.breakpoint.verified, c.breakpoint.line],
                           ['changed', r.body.breakpoints[0].id, true, 19]);
    await dc.configurationDoneRequest();
    assert.deepStrictEqual((await stopped).body.hitBreakpointIds, [r.body.breakpoints[0].id]);
}));
