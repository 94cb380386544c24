// extension.test.js - editors/vscode/: package.json as VS Code's contribution schema wants it
// (debuggers, configurationAttributes, initialConfigurations, configurationSnippets), its
// launch attributes as the adapter takes them, and extension.js against a stand-in `vscode`.
'use strict';
const test = require('node:test');
const assert = require('assert');
const path = require('path');
const fs = require('fs');
const Module = require('module');
const L = require('./lib');

const dir = path.join(L.top, 'editors', 'vscode');
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const dbg = (pkg.contributes.debuggers || []).find(d => d.type === 'ptxdbg');

test('package.json: manifest fields and the ptxdbg debugger contribution', () => {
    for (const k of ['name', 'publisher', 'version', 'engines', 'main', 'displayName'])
        assert.ok(pkg[k], k);
    assert.match(pkg.engines.vscode, /^\^\d+\.\d+\.\d+$/);
    assert.match(pkg.name, /^[a-z0-9][a-z0-9-]*$/);  // marketplace names: lower case
    assert.ok(fs.existsSync(path.join(dir, pkg.main)));
    assert.ok(pkg.categories.includes('Debuggers'));
    assert.ok(pkg.activationEvents.includes('onDebugResolve:ptxdbg'));
    assert.ok(dbg, 'a debugger of type ptxdbg');
    assert.strictEqual(typeof dbg.label, 'string');
    for (const b of pkg.contributes.breakpoints)
        assert.strictEqual(typeof b.language, 'string');
    assert.ok(dbg.languages.every(l => pkg.contributes.breakpoints.some(b => b.language === l)),
              'breakpoints are enabled in every language the debugger names');
    for (const c of pkg.contributes.commands || []) {
        assert.match(c.command, /^ptxdbg\./);
        assert.strictEqual(typeof c.title, 'string');
    }
});

// JSON schema types as VS Code checks launch.json against configurationAttributes
const jsonType = v => Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v;
function conforms(schema, v) {
    const types = [].concat(schema.type);
    if (!types.includes(jsonType(v)) && !(types.includes('integer') && Number.isInteger(v)))
        return false;
    if (jsonType(v) === 'array' && schema.items)
        return v.every(x => conforms(schema.items, x));
    if (jsonType(v) === 'object' && schema.additionalProperties)
        return Object.values(v).every(x => conforms(schema.additionalProperties, x));
    return true;
}

test('configurationAttributes: every launch attribute typed and described; the adapter takes them', () => {
    const launch = dbg.configurationAttributes.launch;
    assert.deepStrictEqual(launch.required, ['program']);
    const props = launch.properties;
    for (const [name, p] of Object.entries(props)) {
        assert.ok(p.type, `${name} has a type`);
        assert.ok(p.description || p.markdownDescription, `${name} is described`);
        if ('default' in p)
            assert.ok(conforms(p, p.default), `${name}'s default has its type`);
    }
    // what the adapter reads in launch (dap_server.c, dap_prog.c), plus the extension's own
    const adapter = ['program', 'args', 'env', 'cwd', 'kernel', 'setupCommands', 'stopOnEntry', 'check', 'checks'];
    assert.deepStrictEqual(Object.keys(props).sort(), [...adapter, 'ptxdbgPath'].sort());
});

// ${workspaceFolder} and snippet placeholders as VS Code fills them in
const fill = (v, ws, name) => JSON.parse(JSON.stringify(v)
    .replace(/\^\\"/g, '').replace(/\\"(?=[,}\]]|$)/g, '')
    .replace(/\\\\\$\{workspaceFolder\}|\$\{workspaceFolder\}/g, ws)
    .replace(/\$\{\d+:([^}]*)\}/g, (m, d) => name || d));

test('initialConfigurations and configurationSnippets are launch configurations of the schema', () => {
    const props = dbg.configurationAttributes.launch.properties;
    const configs = [...dbg.initialConfigurations, ...dbg.configurationSnippets.map(s => {
        assert.strictEqual(typeof s.label, 'string');
        assert.strictEqual(typeof s.description, 'string');
        return s.body;
    })];
    for (const c of configs) {
        const v = fill(c, '/ws');
        assert.strictEqual(v.type, 'ptxdbg');
        assert.strictEqual(v.request, 'launch');
        assert.strictEqual(typeof v.name, 'string');
        assert.ok(typeof v.program === 'string' && v.program.startsWith('/ws/'), v.program);
        for (const [k, x] of Object.entries(v))
            if (!['type', 'request', 'name'].includes(k))
                assert.ok(props[k] && conforms(props[k], x), `${k} of "${v.name}"`);
    }
});

test('the PTX kernel snippet launches as it stands on examples/saxpy', async () => {
    const snip = dbg.configurationSnippets.find(s => s.body.kernel);
    const conf = fill(snip.body, L.top, 'saxpy');
    conf.program = path.join(L.top, 'examples', 'saxpy.ptx');
    const dc = await L.start();
    try {
        const exited = dc.waitForEvent('exited');
        await L.launch(dc, conf, null, 'terminated');
        assert.strictEqual((await exited).body.exitCode, 0);
    } finally {
        dc.stopAdapter();
    }
});

test('extension.js registers a descriptor factory that runs `ptxdbg --dap`', () => {
    const registered = {}, commands = {};
    const vscode = {
        DebugAdapterExecutable: class { constructor(command, args) { this.command = command; this.args = args; } },
        debug: { registerDebugAdapterDescriptorFactory: (type, f) => { registered[type] = f; return { dispose() {} }; },
                 activeDebugSession: undefined },
        workspace: { getConfiguration: () => ({ get: k => (k === 'path' ? '/opt/ptxdbg/bin/ptxdbg' : undefined) }) },
        commands: { registerCommand: (name, f) => { commands[name] = f; return { dispose() {} }; } },
        window: {},
    };
    const load = Module._load;
    Module._load = function (request, ...rest) {
        return request === 'vscode' ? vscode : load.call(this, request, ...rest);
    };
    try {
        const ext = require(path.join(dir, pkg.main));
        const context = { subscriptions: [] };
        ext.activate(context);
        assert.ok(registered.ptxdbg, 'a factory for the ptxdbg type');
        const fromSetting = registered.ptxdbg.createDebugAdapterDescriptor({ configuration: {} });
        assert.deepStrictEqual([fromSetting.command, fromSetting.args], ['/opt/ptxdbg/bin/ptxdbg', ['--dap']]);
        const fromConf = registered.ptxdbg.createDebugAdapterDescriptor({ configuration: { ptxdbgPath: '/x/ptxdbg' } });
        assert.strictEqual(fromConf.command, '/x/ptxdbg');
        for (const c of pkg.contributes.commands || [])
            assert.strictEqual(typeof commands[c.command], 'function', c.command);
        assert.ok(context.subscriptions.length >= 1);
    } finally {
        Module._load = load;
    }
});
