// The course's JupyterLab extension, loaded as JupyterLab loads it (a script that registers a container,
// then init() with the shared modules and get("./extension")), around a stand-in for ipywidgets' manager
// whose restore the test finishes when it chooses.
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const SOURCE = fs.readFileSync(path.join(__dirname, "saved_widgets.js"), "utf8");
const MANAGER_PACKAGE = "@jupyter-widgets/jupyterlab-manager";

// A stand-in with the two methods the extension wraps: restoreWidgets reads the notebook's saved widgets
// (when the test calls finish()), _saveState writes the live ones over the metadata.
function standInManager() {
  return class WidgetManager {
    constructor(metadata) {
      this.metadata = metadata;
      this.live = {};
      this.read = null;
      this._models = {};
      this._modelsSync = new Map();
      this._context = { model: { dirty: false, isDisposed: false } };
    }
    restoreWidgets(notebook, options = { loadKernel: true, loadNotebook: true }) {
      return new Promise((resolve) => {
        this.finish = () => {
          if (options.loadNotebook) this.read = { ...this.metadata.widgets };
          resolve();
        };
      });
    }
    _saveState() {
      this.metadata.widgets = { ...this.live };
    }
    // a model being made: in _models at once (a promise), in _modelsSync once made, as in ipywidgets
    makeModel(modelId) {
      let made;
      this._models[modelId] = new Promise((resolve) => {
        made = () => {
          this._modelsSync.set(modelId, `${modelId}'s model`);
          this.live[modelId] = "live state";
          resolve(this._modelsSync.get(modelId));
        };
      });
      return made;
    }
    // ipywidgets' search: the model if registered, else one look more after a wait (two seconds of looks
    // there), then "not found"; duringWait stands for what the page does meanwhile
    async get_model(modelId) {
      if (this._models[modelId]) return this._models[modelId];
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (this.duringWait) this.duringWait();
      throw new Error("widget model not found");
    }
    has_model(modelId) {
      return this._models[modelId] !== undefined;
    }
  };
}

async function loadPlugin(sharedModules) {
  const sandbox = {
    console: {
      warn: (...args) => sandbox.warnings.push(args.join(" ")),
      debug: (...args) => sandbox.debug.push(args.join(" ")),
    },
    warnings: [],
    debug: [],
  };
  vm.runInNewContext(SOURCE, sandbox);
  const container = sandbox._JUPYTERLAB["bpelab-saved-widgets"];
  await container.init(sharedModules);
  const factory = await container.get("./extension");
  const module = factory();
  assert.equal(module.__esModule, true);
  module.default.activate();
  return { plugin: module.default, warnings: sandbox.warnings, debug: sandbox.debug };
}

function shared(WidgetManager, version = "5.0.16") {
  return { [MANAGER_PACKAGE]: { [version]: { get: async () => () => ({ WidgetManager }) } } };
}

test("a save while the notebook's widgets are being restored leaves them for the restore to read", async () => {
  const WidgetManager = standInManager();
  const { plugin, warnings } = await loadPlugin(shared(WidgetManager));
  assert.equal(plugin.autoStart, true);
  assert.deepEqual(warnings, []);
  const manager = new WidgetManager({ widgets: { explorer: "saved state" } });
  const restored = manager.restoreWidgets({});
  manager._saveState(); // the autosave, while the kernel starts: nothing is alive yet
  assert.deepEqual(manager.metadata.widgets, { explorer: "saved state" });
  manager.finish();
  await restored;
  assert.deepEqual(manager.read, { explorer: "saved state" });
  manager.live = { explorer: "live state" };
  manager._saveState(); // once read, saves are ipywidgets' own again
  assert.deepEqual(manager.metadata.widgets, { explorer: "live state" });
});

test("a save that left out a model still being made marks the notebook changed once it is made", async () => {
  const WidgetManager = standInManager();
  await loadPlugin(shared(WidgetManager));
  const manager = new WidgetManager({ widgets: {} });
  const restored = manager.restoreWidgets({});
  manager.finish();
  await restored;
  const madeExplorer = manager.makeModel("explorer"); // Run All: its output came, its model is still being made
  manager._saveState(); // the autosave the output set off
  assert.deepEqual(manager.metadata.widgets, {});
  assert.equal(manager._context.model.dirty, false);
  manager._saveState(); // a second save meanwhile waits for the same model, once
  madeExplorer();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(manager._context.model.dirty, true, "the next autosave must write the explorer's model");
  manager._context.model.dirty = false;
  manager._saveState(); // that autosave: now it holds the model, and nothing is left to wait for
  assert.deepEqual(manager.metadata.widgets, { explorer: "live state" });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(manager._context.model.dirty, false);
});

test("without the extension that save leaves the notebook unchanged, so no autosave writes the model", async () => {
  const manager = new (standInManager())({ widgets: {} });
  const madeExplorer = manager.makeModel("explorer");
  manager._saveState();
  madeExplorer();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(manager._context.model.dirty, false);
  assert.deepEqual(manager.metadata.widgets, {});
});

test("a model registered while the search for it waited is returned, not 'not found'", async () => {
  const WidgetManager = standInManager();
  await loadPlugin(shared(WidgetManager));
  const manager = new WidgetManager({});
  manager.duringWait = () => {
    manager._models.explorer = Promise.resolve("the explorer's model"); // the restore, just in time
  };
  assert.equal(await manager.get_model("explorer"), "the explorer's model");
  await assert.rejects(manager.get_model("never-saved"), /widget model not found/); // a model that is not there
  manager.duringWait = null;
  assert.equal(await manager.get_model("explorer"), "the explorer's model"); // found at once, as before
});

test("without the extension that search says 'not found'", async () => {
  const manager = new (standInManager())({});
  manager.duringWait = () => {
    manager._models.explorer = Promise.resolve("the explorer's model");
  };
  await assert.rejects(manager.get_model("explorer"), /widget model not found/);
});

test("without the extension the same save empties the metadata before the restore reads it", () => {
  // what the wrapping prevents, on the same stand-in: if this ever reads the saved state, the test above
  // no longer shows anything
  const manager = new (standInManager())({ widgets: { explorer: "saved state" } });
  const restored = manager.restoreWidgets({});
  manager._saveState();
  manager.finish();
  return restored.then(() => assert.deepEqual(manager.read, {}));
});

test("a kernel-only restore (after a restart) does not count as reading the notebook", async () => {
  const WidgetManager = standInManager();
  await loadPlugin(shared(WidgetManager));
  const manager = new WidgetManager({ widgets: { explorer: "saved state" } });
  const kernelOnly = manager.restoreWidgets({}, { loadKernel: true, loadNotebook: false });
  manager.finish();
  await kernelOnly;
  manager._saveState();
  assert.deepEqual(manager.metadata.widgets, { explorer: "saved state" });
});

test("a restore that fails still ends the wait, and each manager waits for its own", async () => {
  const WidgetManager = standInManager();
  WidgetManager.prototype.restoreWidgets = () => Promise.reject(new Error("kernel died"));
  await loadPlugin(shared(WidgetManager));
  const failed = new WidgetManager({ widgets: { a: 1 } });
  const other = new WidgetManager({ widgets: { b: 2 } });
  await assert.rejects(failed.restoreWidgets({}));
  failed._saveState();
  other._saveState();
  assert.deepEqual(failed.metadata.widgets, {});
  assert.deepEqual(other.metadata.widgets, { b: 2 });
});

test("loading the extension twice wraps once", async () => {
  const WidgetManager = standInManager();
  await loadPlugin(shared(WidgetManager));
  const once = WidgetManager.prototype._saveState;
  await loadPlugin(shared(WidgetManager));
  assert.equal(WidgetManager.prototype._saveState, once);
});

test("the newest of several shared versions is the one wrapped", async () => {
  const older = standInManager();
  const newer = standInManager();
  const modules = {
    [MANAGER_PACKAGE]: {
      "5.0.9": { get: async () => () => ({ WidgetManager: older }) },
      "5.0.16": { get: async () => () => ({ WidgetManager: newer }) },
    },
  };
  await loadPlugin(modules);
  const wrapped = Symbol.for("bpelab-saved-widgets");
  assert.equal(newer.prototype._saveState[wrapped], true); // 5.0.16, not 5.0.9 (compared as numbers)
  assert.equal(older.prototype._saveState[wrapped], undefined);
});

test("on a JupyterLab without the widget manager, or another version of it, it says so and changes nothing", async () => {
  const none = await loadPlugin({});
  assert.match(none.warnings[0], /changed nothing \(@jupyter-widgets\/jupyterlab-manager is not among/);
  const Other = class WidgetManager {};
  const other = await loadPlugin(shared(Other));
  assert.match(other.warnings[0], /lacks a method this extension wraps/);
  assert.deepEqual(Object.getOwnPropertyNames(Other.prototype), ["constructor"]);
});

test("it offers only the module JupyterLab asks for", async () => {
  const sandbox = { console };
  vm.runInNewContext(SOURCE, sandbox);
  await assert.rejects(sandbox._JUPYTERLAB["bpelab-saved-widgets"].get("./mimeExtension"), /has no module/);
});
