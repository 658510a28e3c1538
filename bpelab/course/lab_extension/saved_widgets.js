// bpelab-saved-widgets: a JupyterLab extension of the course. The widgets saved in a lesson draw when it
// opens, however slowly its new kernel starts.
//
// It is written by hand in the shape JupyterLab loads a prebuilt extension in (a module-federation
// container: init() receives JupyterLab's shared modules, get() returns the plugin), so it needs no build
// step and reads as it runs.
//
// Why it is needed. ipywidgets' manager for JupyterLab (jupyterlab_widgets 3.0) reads the widgets saved in a
// notebook only once the notebook's new kernel has started and answered (restoreWidgets). Two things go
// wrong while it waits, both seen in the course's browser tests on a busy machine, and both end with
// "Error displaying widget: model not found" until the lesson is opened again:
// - every save first replaces the notebook's widget metadata with the widgets alive in the kernel
//   (_saveState), and there are none yet: a save in that window (an autosave, or Ctrl+S at once) empties
//   the metadata before the manager reads it, and no widget of the lesson draws. (The file keeps them: the
//   course's save hook on the server puts them back. Only the open page suffers.)
// - a widget output asks for its model (get_model), which looks for two seconds and then gives up. If the
//   restore registers the model in the last moments of those two seconds and finishes at once, the
//   output sees "not found" with the manager already "restored", and says so for good.
//
// - a save writes the models that exist when it starts (get_state_sync). A model still being made (its
//   module loading, its state being read: seconds on a busy machine) is left out, yet its output, which
//   came with it and set off that save, is written. Nothing marks the notebook changed when the model comes,
//   so no later autosave writes it, and the next opening reads "model not found" (seen after a Run All).
//
// What it changes. Until a manager has read the notebook's saved widgets, its _saveState leaves the
// metadata as it is (the save writes the widgets that were saved); after that, a save that left out models
// still being made marks the notebook changed once they exist, so the next autosave writes them; and
// get_model looks once more before it gives up. Nothing else is touched.
var _JUPYTERLAB;
(function () {
  "use strict";

  const NAME = "bpelab-saved-widgets";
  const MANAGER_PACKAGE = "@jupyter-widgets/jupyterlab-manager";
  const WRAPPED = Symbol.for(NAME);
  let sharedModules = {};

  // Wrap three methods of WidgetManager's prototype; true if done (now or by an earlier load), false if the
  // class is not the one this was written for.
  function keepSavedWidgetsUntilRead(WidgetManager) {
    const proto = WidgetManager && WidgetManager.prototype;
    const methods = ["restoreWidgets", "_saveState", "get_model", "has_model"];
    if (!proto || !methods.every((name) => typeof proto[name] === "function")) return false;
    if (proto._saveState[WRAPPED]) return true;
    const restore = proto.restoreWidgets;
    const saveState = proto._saveState;
    const getModel = proto.get_model;
    const hasReadNotebook = new WeakSet(); // the managers whose notebook restore has finished

    function restoreWidgets(notebook, options) {
      const what = !options || options.loadNotebook !== false ? "notebook" : "kernel-only";
      log(`${what} restore started; the notebook holds ${savedCount(notebook)} saved widget models`);
      const running = Promise.resolve(restore.call(this, notebook, options));
      const finished = () => {
        log(`${what} restore finished; the manager holds ${modelCount(this)} models`);
        // finished either way: a restore that failed has nothing more to read
        if (what === "notebook") hasReadNotebook.add(this);
      };
      running.then(finished, finished);
      return running;
    }

    function _saveState() {
      if (!hasReadNotebook.has(this)) {
        log(`a save kept the notebook's ${savedCount(this._context && this._context.model)} saved widget models`);
        return;
      }
      const result = saveState.call(this);
      saveAgainOnceMade(this);
      return result;
    }

    // The models this save left out because they were still being made: once they are (made or failed),
    // the notebook is marked changed, which an autosave (or the learner's next save) answers.
    const awaited = new WeakMap(); // manager -> the ids of the models already waited for
    function saveAgainOnceMade(manager) {
      const made = manager._modelsSync;
      const models = manager._models || {};
      if (!made || typeof made.has !== "function") return;
      const waiting = awaited.get(manager) || new Set();
      awaited.set(manager, waiting);
      const pending = Object.keys(models).filter((id) => !made.has(id) && !waiting.has(id));
      if (pending.length === 0) return;
      pending.forEach((id) => waiting.add(id));
      log(`a save left out ${pending.length} widget models still being made`);
      Promise.allSettled(pending.map((id) => models[id])).then(() => {
        pending.forEach((id) => waiting.delete(id));
        const model = manager._context && manager._context.model;
        if (!model || model.isDisposed) return;
        model.dirty = true;
        log(`${pending.length} widget models made after a save: the notebook is marked changed`);
      });
    }

    async function get_model(modelId) {
      try {
        return await getModel.call(this, modelId);
      } catch (error) {
        // registered while the search slept between two looks: the restore got there in time after all
        if (!this.has_model(modelId)) throw error;
        log(`model ${modelId} came as the search for it gave up`);
        return getModel.call(this, modelId);
      }
    }

    restoreWidgets[WRAPPED] = _saveState[WRAPPED] = get_model[WRAPPED] = true;
    proto.restoreWidgets = restoreWidgets;
    proto._saveState = _saveState;
    proto.get_model = get_model;
    return true;
  }

  // What it did, for a developer's console (and the course's browser tests, which print it when a widget fails).
  function log(message) {
    console.debug(`${NAME}: ${message}`);
  }

  function savedCount(notebook) {
    const widgets = notebook && notebook.getMetadata ? notebook.getMetadata("widgets") : null;
    const state = widgets && widgets["application/vnd.jupyter.widget-state+json"];
    return state && state.state ? Object.keys(state.state).length : 0;
  }

  function modelCount(manager) {
    return manager._models ? Object.keys(manager._models).length : "?";
  }

  // WidgetManager from the newest version of the widget manager's package among the shared modules, or null.
  async function widgetManagerClass() {
    const versions = sharedModules[MANAGER_PACKAGE];
    if (!versions || Object.keys(versions).length === 0) return null;
    const newest = Object.keys(versions).sort((a, b) => b.localeCompare(a, "en", { numeric: true }))[0];
    const factory = await versions[newest].get();
    const exports = typeof factory === "function" ? factory() : factory;
    return (exports && exports.WidgetManager) || null;
  }

  async function plugin() {
    let wrapped = false;
    let problem = `${MANAGER_PACKAGE} is not among JupyterLab's shared modules`;
    try {
      const WidgetManager = await widgetManagerClass();
      wrapped = keepSavedWidgetsUntilRead(WidgetManager);
      if (WidgetManager && !wrapped) problem = "its WidgetManager lacks a method this extension wraps";
    } catch (error) {
      problem = String(error);
    }
    return {
      id: `${NAME}:plugin`,
      description: "The widgets saved in a notebook draw when it opens, however slowly its kernel starts (the bpelab course).",
      autoStart: true,
      activate() {
        if (!wrapped) console.warn(`${NAME}: changed nothing (${problem})`);
      },
    };
  }

  _JUPYTERLAB = _JUPYTERLAB || {};
  _JUPYTERLAB[NAME] = {
    init(scope) {
      sharedModules = scope || {};
    },
    async get(module) {
      if (module !== "./extension") throw new Error(`${NAME} has no module ${module}`);
      const extension = await plugin();
      return () => ({ __esModule: true, default: extension });
    },
  };
})();
