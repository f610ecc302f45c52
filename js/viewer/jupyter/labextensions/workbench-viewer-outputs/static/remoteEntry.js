// JupyterLab 4 and Notebook 7: what a widget's output shows when its widget is gone, and when the kernel
// updates it. A prebuilt ("federated") extension, installed with the package (pyproject.toml's
// shared-data) into share/jupyter/labextensions/, where both apps load it; nothing to build.
//
// 1. An output of a widget whose model does not exist (a notebook saved and opened again in a new
//    session, or opened by a colleague) shows the output's own image/png. Without this,
//    @jupyter-widgets/jupyterlab-manager writes "Error displaying widget: model not found" there: Lab's
//    registry picks one renderer per output, the widget's (rank -10, ahead of every picture) for a
//    trusted output, and a renderer cannot decline (ipywidgets PR 849 and JupyterLab issue 1139 say so).
//    The AvatarViewer's outputs carry their view's PNG beside the widget (workbench/widgets/still.py).
// 2. An output the kernel updates with the same widget (a viewer's still, sent when the view settles)
//    keeps the view it has. jupyterlab-manager would empty the output and draw a second view of the same
//    widget, leaving the first view's element out of the page while Lab still holds it as a child:
//    closing the output later fails in Lab's removeChild (NotFoundError in the console).
//
// The container is written by hand because it imports nothing: the application object Lab passes to a
// plugin has the document registry, so no shared package (no webpack build) is needed. Lab's loader runs
// this file as a script, then calls init(shareScope) and get("./extension") on window._JUPYTERLAB[name],
// the interface of webpack's module federation containers that every prebuilt extension provides.

var _JUPYTERLAB;
(() => {
  const NAME = "workbench-viewer-outputs";
  const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
  const PATCHED = Symbol.for(`${NAME}:patched`);

  const modelId = model => {
    const view = model.data[WIDGET_VIEW];
    return view && typeof view.model_id === "string" ? view.model_id : "";
  };

  // The output's own picture where jupyterlab-manager wrote its error (no view, the class it adds then).
  function showPicture(renderer, model) {
    const png = model.data["image/png"];
    if (typeof png !== "string" || renderer.widgets.length || !renderer.hasClass("jupyter-widgets")) return;
    const meta = (model.metadata && model.metadata["image/png"]) || {};
    const text = model.data["text/plain"];
    const img = document.createElement("img");
    img.src = `data:image/png;base64,${png}`;
    img.alt = meta.alt || (typeof text === "string" ? text : "the widget's picture");
    if (meta.width) img.width = meta.width;
    if (meta.height) img.height = meta.height;
    renderer.node.replaceChildren(img);
    renderer.removeClass("jupyter-widgets");
    renderer.addClass("jp-RenderedImage");
    renderer.node.dataset.widgetPicture = modelId(model);
  }

  function keepViews(renderer) {
    const render = renderer.renderModel.bind(renderer);
    let shown = "";
    renderer.renderModel = async model => {
      const id = modelId(model);
      if (id && id === shown && renderer.widgets.length) return;  // the same widget, its view alive: kept
      renderer.removeClass("jp-RenderedImage");
      delete renderer.node.dataset.widgetPicture;
      await render(model);
      shown = renderer.widgets.length ? id : "";
      showPicture(renderer, model);
    };
  }

  // A notebook's registry (and its clones: an output opened in a view of its own) makes widget
  // renderers that do both. The renderer stays jupyterlab-manager's own object (it finds its renderers
  // by class to hand them the kernel's widget manager); only its renderModel is wrapped.
  function patch(rendermime) {
    if (!rendermime || rendermime[PATCHED]) return;
    rendermime[PATCHED] = true;
    const create = rendermime.createRenderer.bind(rendermime);
    rendermime.createRenderer = mimeType => {
      const renderer = create(mimeType);
      if (mimeType === WIDGET_VIEW && typeof renderer.renderModel === "function") keepViews(renderer);
      return renderer;
    };
    const clone = rendermime.clone.bind(rendermime);
    rendermime.clone = options => {
      const copy = clone(options);
      patch(copy);
      return copy;
    };
  }

  const plugin = {
    id: `${NAME}:plugin`,
    description: "A widget output shows its saved picture when its widget is gone, and keeps its view when updated.",
    autoStart: true,
    activate: app => {
      app.docRegistry.addWidgetExtension("Notebook", {
        createNew: panel => { patch(panel.content && panel.content.rendermime); },
      });
    },
  };

  _JUPYTERLAB = _JUPYTERLAB || {};
  _JUPYTERLAB[NAME] = {
    init: () => {},
    get: module => module === "./extension"
      ? Promise.resolve(() => ({ __esModule: true, default: [plugin] }))
      : Promise.reject(new Error(`${NAME} has no module ${module}`)),
  };
})();
