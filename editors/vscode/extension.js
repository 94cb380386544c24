// extension.js - VS Code glue for ptxdbg: runs `ptxdbg --dap` as the debug adapter of the
// `ptxdbg` debug type, with the executable from the launch configuration or the settings.
'use strict';
const vscode = require('vscode');

function activate(context) {
    const factory = {
        createDebugAdapterDescriptor(session) {
            const conf = session.configuration || {};
            const path = conf.ptxdbgPath ||
                vscode.workspace.getConfiguration('ptxdbg').get('path') || 'ptxdbg';
            return new vscode.DebugAdapterExecutable(path, ['--dap']);
        }
    };
    context.subscriptions.push(
        vscode.debug.registerDebugAdapterDescriptorFactory('ptxdbg', factory));
    // `ptxdbg/focus` from the command palette: move the focus to a block and thread
    context.subscriptions.push(vscode.commands.registerCommand('ptxdbg.focus', async () => {
        const s = vscode.debug.activeDebugSession;
        if (!s || s.type !== 'ptxdbg')
            return;
        const text = await vscode.window.showInputBox({
            prompt: 'Focus: block x,y,z thread x,y,z', placeHolder: '0,0,0 5,0,0' });
        if (!text)
            return;
        const [b, t] = text.trim().split(/\s+/).map(p => p.split(',').map(Number));
        try {
            await s.customRequest('ptxdbg/focus', { block: b, thread: t || [0, 0, 0] });
        } catch (e) {
            vscode.window.showErrorMessage(String(e.message || e));
        }
    }));
}

function deactivate() {}

module.exports = { activate, deactivate };
