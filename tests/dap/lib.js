// lib.js - shared helpers of the DAP tests: start `ptxdbg --dap` under VS Code's adapter test
// client and launch the fixtures.
'use strict';
const path = require('path');
const assert = require('assert');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const top = path.resolve(__dirname, '..', '..');
const ptxdbg = path.resolve(process.env.PTXDBG || path.join(top, 'ptxdbg'));
const fixture = (...p) => path.join(top, 'tests', 'fixtures', 'dap', ...p);
const dapk = { ptx: fixture('dapk.G.ptx'), cu: fixture('dapk.cu') };

// Buffers of the walk kernel: out[128], cells = 4 Cells of {id, w[3]} (16 ints, iota: so
// cells[k].id == 4 * k), and the value each thread computes, as the C reference of dapk.cu.
const walkSetup = ['buffer out s32 128', 'buffer cells s32 16 = iota', 'buffer flag s32 4',
                   'buffer p s32 32'];
const walkLine = 'walk<<<2, 64>>>(out, cells, 128)';
function walkValue(i) {
    const tid = i % 64, blk = Math.floor(i / 64);
    const tile = blk * 64 + (tid + 1) % 64;
    return tile * tile + (i + 2) + 4 * (i % 4);
}

async function start() {
    const dc = new DebugClient(ptxdbg, '--dap', 'ptxdbg');
    dc.defaultTimeout = 20000; // the machine may be loaded: these bound waiting, not work
    await dc.start();
    dc.outputText = { stdout: '', stderr: '', console: '' };
    dc.on('output', e => { dc.outputText[e.body.category] = (dc.outputText[e.body.category] || '') + e.body.output; });
    return dc;
}

// initialize + launch + the configuration sequence with the given breakpoint requests; resolves
// with the first stopped event (or null when `expect` is 'terminated').
async function launch(dc, args, configure, expect = 'stopped') {
    const waiting = dc.waitForEvent(expect);
    await Promise.all([
        dc.waitForEvent('initialized').then(async () => {
            if (configure) await configure(dc);
            return dc.configurationDoneRequest();
        }),
        dc.launch(args),
    ]);
    return waiting;
}

function ptxArgs(kernel, extra = {}) {
    return Object.assign({ program: dapk.ptx, setupCommands: walkSetup, kernel }, extra);
}

async function topFrame(dc, threadId) {
    const st = await dc.stackTraceRequest({ threadId });
    assert.ok(st.body.stackFrames.length > 0, 'a stack frame');
    return st.body.stackFrames[0];
}

async function evaluate(dc, expression, frameId, context = 'watch') {
    const r = await dc.evaluateRequest({ expression, frameId, context });
    return r.body.result;
}

async function variables(dc, ref) {
    const r = await dc.variablesRequest({ variablesReference: ref });
    return r.body.variables;
}

async function scope(dc, frameId, name) {
    const s = await dc.scopesRequest({ frameId });
    const sc = s.body.scopes.find(x => x.name === name);
    assert.ok(sc, `scope ${name}`);
    return variables(dc, sc.variablesReference);
}

async function continueTo(dc, event) {
    const waiting = dc.waitForEvent(event);
    await dc.continueRequest({ threadId: 1 });
    return waiting;
}

module.exports = { top, ptxdbg, dapk, walkLine, walkSetup, walkValue, start, launch, ptxArgs,
                   topFrame, evaluate, variables, scope, continueTo, fixture };
