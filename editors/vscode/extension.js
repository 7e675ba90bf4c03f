// The client side of boc's language server: VS Code starts `boc lsp` for
// the .bo files it opens and shows what it publishes.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("boc").get("path", "boc");
  client = new LanguageClient(
    "boc",
    "boc",
    { command, args: ["lsp"] },
    { documentSelector: [{ scheme: "file", language: "bo" }, { scheme: "untitled", language: "bo" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
