// bpelab-saved-widgets: a JupyterLab extension of the course. A save made while a notebook is still opening
// keeps the widgets saved in it, so they draw.
//
// It is written by hand in the shape JupyterLab loads a prebuilt extension in (a module-federation
// container: init() receives JupyterLab's shared modules, get() returns the plugin), so it needs no build
// step and reads as it runs.
//
// Why it is needed. ipywidgets' manager for JupyterLab (jupyterlab_widgets 3.0) reads the widgets saved in a
// notebook only once the notebook's new kernel has started and answered (restoreWidgets). With saveState on,
// every save first replaces the notebook's widget metadata with the widgets alive in the kernel
// (_saveState), and while the kernel starts there are none. A save in that window (an autosave on a busy
// machine, or Ctrl+S at once) empties the metadata before the manager reads it: every saved widget of the
// lesson then reads "Error displaying widget: model not found" until the lesson is opened again. The file
// itself keeps them (the course's save hook on the server puts them back), so only the open page suffers.
//
// What it changes. Until a manager has read the notebook's saved widgets, its _saveState leaves the
// metadata as it is: the save writes the widgets that were saved. Nothing else is touched.
var _JUPYTERLAB;
(function () {
  "use strict";

  const NAME = "bpelab-saved-widgets";
  const MANAGER_PACKAGE = "@jupyter-widgets/jupyterlab-manager";
  const WRAPPED = Symbol.for(NAME);
  let sharedModules = {};

  // Wrap the two methods of WidgetManager's prototype; true if done (now or by an earlier load), false if
  // the class is not the one this was written for.
  function keepSavedWidgetsUntilRead(WidgetManager) {
    const proto = WidgetManager && WidgetManager.prototype;
    if (!proto || typeof proto.restoreWidgets !== "function" || typeof proto._saveState !== "function") {
      return false;
    }
    if (proto._saveState[WRAPPED]) return true;
    const restore = proto.restoreWidgets;
    const saveState = proto._saveState;
    const hasReadNotebook = new WeakSet(); // the managers whose notebook restore has finished

    function restoreWidgets(notebook, options) {
      const running = Promise.resolve(restore.call(this, notebook, options));
      if (!options || options.loadNotebook !== false) {
        // finished either way: a restore that failed has nothing more to read
        running.then(
          () => hasReadNotebook.add(this),
          () => hasReadNotebook.add(this),
        );
      }
      return running;
    }

    function _saveState() {
      if (hasReadNotebook.has(this)) saveState.call(this);
    }

    restoreWidgets[WRAPPED] = _saveState[WRAPPED] = true;
    proto.restoreWidgets = restoreWidgets;
    proto._saveState = _saveState;
    return true;
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
      if (WidgetManager && !wrapped) problem = "its WidgetManager lacks the methods this extension wraps";
    } catch (error) {
      problem = String(error);
    }
    return {
      id: `${NAME}:plugin`,
      description: "A save made while a notebook opens keeps the widgets saved in it (the bpelab course).",
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
