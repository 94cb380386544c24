// check.js - parses every line of a ptxdbg --json session (RFC 8259, JSON.parse) and asserts
// one case's fields. Usage: node check.js CASE FILE [ARG...]; prints "PASS CASE" or
// "FAIL CASE: reason". Expected values are passed in by tests/json.sh from the fixtures'
// sources (line numbers) or restated from the kernels' arithmetic.
'use strict';
const fs = require('fs');
const [name, file, ...args] = process.argv.slice(2);

function fail(why) { console.log(`FAIL ${name}: ${why}`); process.exit(0); }
function eq(what, got, want) {
    if (JSON.stringify(got) !== JSON.stringify(want))
        fail(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const text = fs.readFileSync(file, 'utf8');
const lines = text.split('\n');
if (lines[lines.length - 1] !== '') fail('the last line does not end with a newline');
lines.pop();
const objs = lines.map((l, i) => {
    try { return JSON.parse(l); } catch (e) { fail(`line ${i + 1} is not JSON: ${l.slice(0, 120)}`); }
    return null;
});
for (const o of objs) {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) fail('a line is not an object');
    if ('command' in o) {
        if (typeof o.ok !== 'boolean') fail(`"${o.command}": ok is not a boolean`);
        if (!o.ok && typeof o.error !== 'string') fail(`"${o.command}": failed with no error`);
    } else if (typeof o.event !== 'string') {
        fail('an object is neither a result nor an event');
    }
}
const result = cmd => {
    const r = objs.find(o => o.command === cmd);
    if (!r) fail(`no result for "${cmd}"`);
    return r;
};
const stops = objs.filter(o => o.event === 'stop');
const base = p => p.replace(/.*\//, '');

switch (name) {
case 'source': {
    const [bpLine, callLine] = args.map(Number);
    const launch = 'launch saxpy<<<2, 32>>>(40, 2, x, y)';
    const first = stops[0];
    if (!first) fail('no stop event');
    eq('stop reason', first.reason, 'breakpoint');
    eq('stop breakpoint', first.breakpoint, 1);
    eq('stop function', first.function, 'add_one');
    eq('stop file', base(first.file), 'srcdbg.cu');
    eq('stop line', first.line, bpLine);
    eq('stop block', first.block, [0, 0, 0]);
    eq('stop thread', first.thread, [0, 0, 0]);
    eq('launch ok', result(launch).ok, true);
    // add_one(i) with i = blockIdx.x * blockDim.x + threadIdx.x = 0
    const p = result('print x');
    eq('print value', p.value, '0');
    eq('print type', p.type, 'int');
    eq('print history', p.history, 1);
    const bt = result('backtrace').frames;
    eq('frames', bt.map(f => f.function), ['add_one', 'saxpy']);
    eq('frame 0 line', bt[0].line, bpLine);
    eq('frame 1 line', bt[1].line, callLine);
    eq('frame 0 args', bt[0].args, 'x=0');
    const bps = result('info breakpoints').breakpoints;
    eq('breakpoints', bps.length, 1);
    eq('breakpoint line', bps[0].line, bpLine);
    eq('breakpoint hits', bps[0].hits, 1);
    eq('breakpoint enabled', bps[0].enabled, true);
    const lanes = result('info cuda lanes').lanes;
    eq('lanes', lanes.length, 32);
    eq('lane 31 thread', lanes[31].thread, [31, 0, 0]);
    eq('focused lanes', lanes.filter(l => l.focused).length, 1);
    const warps = result('info cuda warps').warps;
    eq('warps in flight', warps.length >= 1, true);
    // block 1 thread 5: i = 1 * 32 + 5
    eq('second stop block', stops[1] && stops[1].block, [1, 0, 0]);
    const pi = result('print i');
    eq('print i at block 1 thread 5', pi.value, '37');
    eq('history', pi.history, 2);
    eq('info args', result('info args').variables, [{ name: 'x', value: '0' }]);
    // in add_one, x is the int 0: address 0 cannot be read, and the stream goes on
    const x0 = result('x/4fw x');
    eq('x at 0 fails', x0.ok, false);
    if (!/Cannot access memory at address 0x0/.test(x0.error)) fail(`x at 0: ${x0.error}`);
    // up in saxpy, x is buffer x = iota: x[k] = k
    const mem = objs.filter(o => o.command === 'x/4fw x')[1];
    if (!mem) fail('no second x');
    eq('x values', mem.values, ['0', '1', '2', '3']);
    eq('x unit', mem.unit_bytes, 4);
    const regs = result('info registers').registers;
    if (!regs.length || !regs.every(r => r.name && /^0x[0-9a-f]+$/.test(r.hex)))
        fail('info registers rows');
    const bad = result('frobnicate');
    eq('bad command ok', bad.ok, false);
    if (!/Undefined command: "frobnicate"/.test(bad.error)) fail(`bad command error: ${bad.error}`);
    eq('failed print ok', result('print nosuch').ok, false);
    if (!/json/.test(result('show output').output)) fail('show output does not say json');
    const echo = result('echo a\\tb\\n');
    eq('echo output (a tab, escaped)', echo.output, 'a\tb\n');
    break;
}
case 'finding': {
    const [bugLine] = args.map(Number);
    const ev = objs.find(o => o.event === 'finding');
    if (!ev) fail('no finding event');
    const f = ev.finding;
    eq('checker', f.checker, 'memcheck');
    eq('kind', f.kind, 'out-of-bounds');
    eq('access', f.access, 'write');
    eq('size', f.size, 4);
    // off_by_one(a, 30) on 30 ints: thread 30 writes a[30], 120 bytes from a
    eq('thread', f.threads[0].thread, [30, 0, 0]);
    eq('line', f.threads[0].line, bugLine);
    eq('offset', f.allocation.offset, 120);
    const ic = result('info checks');
    eq('info checks findings', ic.findings.length, 1);
    eq('info checks finding kind', ic.findings[0].kind, 'out-of-bounds');
    eq('memcheck on', ic.checkers.find(c => c.name === 'memcheck').enabled, true);
    break;
}
case 'fault': {
    const [line] = args.map(Number);
    const s = stops[0];
    if (!s) fail('no stop event');
    eq('reason', s.reason, 'exception');
    eq('exception', s.exception, 'Warp Out-of-range Address');
    eq('exception number', s.exception_number, 5);
    // far_write(a, 4096): thread 1 writes a[4096] = a + 0x4000 (thread 0's a[0] is in bounds)
    eq('thread', s.thread, [1, 0, 0]);
    eq('address', s.address, '0x700004000');
    eq('line', s.line, line);
    eq('continue refused', result('continue').ok, false);
    break;
}
case 'program':
case 'program-order': {
    // the program's own output streams as output events, in the order it was written
    const outs = objs.filter(o => o.event === 'output');
    for (const o of outs) {
        if (!['stdout', 'stderr', 'console'].includes(o.category)) fail(`output category ${o.category}`);
        if (typeof o.text !== 'string' || !o.text) fail('an output event without text');
    }
    // positions in the stream: object index, then offset inside an output event's text (a
    // read of the program's pipe may bring two writes in one event; their order is the text's)
    const pos = (i, off = 0) => i < 0 ? -1 : i * 1e9 + off;
    const at = what => {
        const i = objs.findIndex(o => o.event === 'output' && o.category === 'stdout' &&
                                      o.text.includes(what));
        return pos(i, i < 0 ? 0 : objs[i].text.indexOf(what));
    };
    const stopAt = fn => pos(objs.findIndex(o => o.event === 'stop' && o.function === fn));
    const before = at('host before\n'), tag1 = at('block 0 says hello (tag 1)\n');
    const formats = at('int -42 unsigned 42'), after = at('host after\n');
    if (before < 0 || tag1 < 0) fail('program output is missing');
    const run = result('run');
    if ((run.output || '').includes('host before')) fail('the program\'s output is in run\'s result');
    if (pos(objs.indexOf(run)) < tag1) fail('run\'s result comes before the program\'s output');
    if (name === 'program') {
        const s = stops[0];
        if (!s) fail('no stop event');
        eq('reason', s.reason, 'breakpoint');
        eq('function', s.function, 'hello');
        eq('bt', result('backtrace').frames[0].function, 'hello');
        // printed before the first launch, then the stop in it, then its printf
        const st = stopAt('hello');
        if (!(before < st && st < tag1)) fail(`order: before ${before}, stop ${st}, tag 1 ${tag1}`);
        // the stop's report text is the debugger's: a console object after the stop
        const con = pos(objs.findIndex(o => o.event === 'output' && o.category === 'console' &&
                                            o.text.includes('Breakpoint 1, hello')));
        if (con < st) fail('the stop\'s report is not a console output after the stop');
    } else {
        // a stop in the middle: the output written before it comes before it, the rest after
        const st = stopAt('formats');
        if (st < 0) fail('no stop in formats');
        if (formats < 0 || after < 0) fail('the output after the stop is missing');
        if (pos(objs.indexOf(run)) < after) fail('run\'s result comes before the program\'s last output');
        if (!(before < st && tag1 < st && st < formats && formats < after))
            fail(`order: before ${before}, tag 1 ${tag1}, stop ${st}, formats ${formats}, after ${after}`);
    }
    break;
}
case 'printf': {
    // printf_formats<<<1, 4>>>(v = {7, -3, 123456, 0}, ...) between the breakpoints on its first
    // printf and on __syncthreads: one warp, so each printf prints lanes 0..3 in order; the
    // formats are read from the CUDA source and the conversions computed here (C's rules)
    const src = fs.readFileSync(args[0], 'utf8');
    const fmt = re => { const m = src.match(re); if (!m) fail(`no ${re} in the source`); return m[1]; };
    const f1 = fmt(/printf\("(thread %d[^"]*)"/), f2 = fmt(/printf\("(  \[%5d\][^"]*)"/);
    const vals = [7, -3, 123456, 0];
    const u32 = v => BigInt.asUintN(32, BigInt(v));
    const conv = (spec, v) => {
        switch (spec) {
        case '%d': return String(v);
        case '%x': return u32(v).toString(16);
        case '%X': return u32(v).toString(16).toUpperCase();
        case '%u': return u32(v).toString();
        case '%5d': return String(v).padStart(5);
        case '%-5d': return String(v).padEnd(5);
        case '%05d': return v < 0 ? '-' + String(-v).padStart(4, '0') : String(v).padStart(5, '0');
        case '%+d': return (v >= 0 ? '+' : '') + v;
        default: fail(`conversion ${spec}`);
        }
    };
    const c_printf = (f, ...a) => f.replace(/\\n/g, '\n').replace(/%[-+0]?\d*[dxXu]/g, s => conv(s, a.shift()));
    let want = '';
    for (let t = 0; t < 4; t++)
        want += c_printf(f1, t, 0, vals[t], vals[t], vals[t]);
    for (let t = 0; t < 4; t++)   // (unsigned)v * 2654435761u, modulo 2^32
        want += c_printf(f2, vals[t], vals[t], vals[t], t,
                         Number(BigInt.asUintN(32, u32(vals[t]) * 2654435761n)));
    const s1 = objs.findIndex(o => o.event === 'stop' && o.breakpoint === 1);
    const s2 = objs.findIndex(o => o.event === 'stop' && o.breakpoint === 2);
    if (s1 < 0 || s2 < 0) fail('the two stops are missing');
    const outs = objs.map((o, i) => [o, i]).filter(([o]) => o.event === 'output');
    if (!outs.length) fail('no output event');
    for (const [o, i] of outs) {
        eq('output category', o.category, 'stdout');
        if (!(s1 < i && i < s2)) fail(`an output event at ${i} is not between the stops (${s1}, ${s2})`);
    }
    eq('printed text', outs.map(([o]) => o.text).join(''), want);
    // the continue's result keeps the text in its output, before the stop's report
    const out = result('continue').output;
    if (!out.startsWith(want)) fail(`continue's output: ${JSON.stringify(out.slice(0, 80))}`);
    if (!/\nBreakpoint 2, printf_formats/.test(out)) fail('continue\'s output lacks the report');
    eq('continue frame line', result('continue').frame.line, src.split('\n').findIndex(l => l.includes('__syncthreads')) + 1);
    break;
}
case 'model': {
    // the output model's structured commands; expected values come from the fixture's CUDA
    // source and PTX text and from the launch saxpy<<<2, 32>>>(40, 2, x, y) with x = iota
    const [src, ptx] = args;
    const [fnLine, bpLine, entryLine] = args.slice(2).map(Number);
    const srcLines = fs.readFileSync(src, 'utf8').split('\n');
    const ptxLines = fs.readFileSync(ptx, 'utf8').split('\n');
    // blanks collapse; [a+0] is the address [a] (PTX ISA, addresses as operands)
    const norm = t => t.replace(/\s+/g, ' ').replace(/\+0\]/g, ']').trim();
    const bps = result('info breakpoints').breakpoints;
    eq('breakpoint numbers', bps.map(b => b.number), [1, 2]);
    eq('condition', bps[1].condition, 'i == 37');
    eq('bp 1 line', bps[0].line, bpLine);
    // list: every row is the source file's line, 10 of them (listsize), in order
    const ls = result('list add_one');
    eq('list file', base(ls.file), 'srcdbg.cu');
    eq('list rows', ls.lines.length, 10);
    ls.lines.forEach((r, i) => {
        eq(`list line ${r.line}`, r.text, srcLines[r.line - 1]);
        if (i && r.line !== ls.lines[i - 1].line + 1) fail('list lines are not consecutive');
    });
    // disassemble: the instructions of add_one's body in the PTX file, in order
    const dis = result('disassemble');
    eq('disassemble function', dis.function, 'add_one(int)');
    const head = ptxLines.findIndex(l => /\.func.*_Z7add_onei\(/.test(l));
    if (head < 0) fail('add_one not in the PTX');
    let k = head;
    while (!/^\{/.test(ptxLines[k])) k++;
    const body = [];
    for (k++; !/^\}/.test(ptxLines[k]); k++) {
        const t = norm(ptxLines[k]);
        if (t && !/^(\.|\/\/|\$|\{|\})/.test(t) && t.endsWith(';')) body.push({ line: k + 1, t });
    }
    eq('disassembled instructions', dis.instructions.map(i => norm(i.instruction)), body.map(b => b.t));
    eq('instruction PTX lines', dis.instructions.map(i => i.ptx_line), body.map(b => b.line));
    eq('pcs', dis.instructions.map(i => i.pc), body.map((b, i) => i));
    eq('current instruction', dis.instructions.filter(i => i.current).map(i => i.ptx_line),
       [ptxLines.findIndex(l => /add\.s32/.test(l)) + 1]);
    const xi = result('x/3i $pc').instructions;
    eq('x/3i', xi.map(i => norm(i.instruction)), body.slice(1, 4).map(b => b.t));
    eq('x/3i current', xi.map(i => i.current), [true, false, false]);
    // info cuda blocks: the grid's two blocks, each once; the focused one (block 0) runs
    const bl = result('info cuda blocks');
    eq('blocks kernel', bl.kernel, 0);
    eq('block count', bl.blocks.reduce((a, b) => a + b.count, 0), 2);
    eq('first block', bl.blocks[0].from, [0, 0, 0]);
    eq('last block', bl.blocks[bl.blocks.length - 1].to, [1, 0, 0]);
    eq('focused block running', bl.blocks.filter(b => b.focused).map(b => b.state), ['running']);
    const kn = result('info cuda kernels').kernels;
    eq('kernels', kn.length, 1);
    eq('grid dim', kn[0].grid_dim, [2, 1, 1]);
    eq('block dim', kn[0].block_dim, [32, 1, 1]);
    eq('kernel status', kn[0].status, 'Active');
    eq('invocation', kn[0].invocation, 'saxpy(int, float, float const*, float*)');
    const th = result('info cuda threads').threads;
    eq('focused thread', th.filter(t => t.focused).map(t => [t.block, t.thread]), [[[0, 0, 0], [0, 0, 0]]]);
    eq('threads unique', new Set(th.map(t => JSON.stringify([t.block, t.thread]))).size, th.length);
    const fr = result('info frame');
    eq('frame level', fr.level, 0);
    eq('frame function', fr.function, 'add_one');
    eq('frame line', fr.line, bpLine);
    eq('frame caller', fr.caller_level, 1);
    eq('frame args', fr.args, 'x=0');
    const bufs = result('info buffers').buffers;
    eq('buffers', bufs.map(b => [b.name, b.type, b.count, b.bytes]), [['x', 'f32', 64, 256], ['y', 'f32', 64, 256]]);
    if (!bufs.every(b => /^0x[0-9a-f]+$/.test(b.address))) fail('buffer addresses');
    const il = result('info line add_one');
    eq('info line', il.line, fnLine);
    eq('info line file', base(il.file), 'srcdbg.cu');
    eq('whatis', result('whatis x').type, 'int');
    eq('ptype', result('ptype x').type, 'int');
    eq('info display', result('info display').displays,
       [{ number: 1, enabled: true, format: '', expression: 'x' }]);
    // add_one(i), i = blockIdx.x * blockDim.x + threadIdx.x: lane k of block 0 has x = k
    const pl = result('print -lanes x').lanes;
    eq('print -lanes', pl.map(l => l.value), [...Array(32).keys()].map(String));
    eq('print -lanes threads', pl.map(l => l.thread[0]), [...Array(32).keys()]);
    eq('print -lanes focus', pl.filter(l => l.focused).map(l => l.lane), [0]);
    const fns = result('info functions').functions;
    const sx = fns.find(f => f.mangled === '_Z5saxpyifPKfPf');
    if (!sx) fail('saxpy not in info functions');
    eq('saxpy kernel', sx.kernel, true);
    eq('saxpy ptx line', sx.ptx_line, entryLine);
    eq('add_one', fns.find(f => f.mangled === '_Z7add_onei').kernel, false);
    const sm = result('info sharedmem');   // srcdbg.cu declares no __shared__ memory
    eq('shared bytes', [sm.static_bytes, sm.dynamic_bytes, sm.variables], [0, 0, []]);
    eq('info locals', result('info locals').variables.map(v => v.name), ['y']);
    // saxpy's y = fill 1: two words of the float 1.0f, 0x3f800000 (IEEE 754 binary32)
    eq('x/2xw y', result('x/2xw y').values, ['0x3f800000', '0x3f800000']);
    break;
}
default:
    fail('unknown case');
}
console.log(`PASS ${name}`);
