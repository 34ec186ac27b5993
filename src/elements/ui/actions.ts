import type { BimViewer3d } from '../bim-viewer-3d.js';

/**
 * The object actions the keyboard and the context menu share. "Show all" keeps the
 * spaces hidden unless spaces are visible (setSpaces / spacesVisible).
 */
export interface ObjectActions {
  showAll(): Promise<void>;
  show(ids: string[]): Promise<void>;
  hide(ids: string[]): Promise<void>;
  hideOthers(ids: string[]): Promise<void>;
  translucent(ids: string[]): Promise<void>;
  translucentOthers(ids: string[]): Promise<void>;
  isolate(ids: string[]): Promise<void>;
  lookAt(ids: string[]): Promise<void>;
}

const quiet = () => undefined;

export function objectActions(viewer: () => BimViewer3d | undefined, spaces: () => Promise<{ ids: string[]; visible: boolean }>): ObjectActions {
  const others = async (v: BimViewer3d, ids: string[]) => {
    const keep = new Set(ids);
    return (await v.each()).filter((id) => !keep.has(id));
  };
  const withViewer = (op: (v: BimViewer3d) => Promise<unknown>) => async () => {
    const v = viewer();
    if (v) await op(v).catch(quiet);
  };
  const hideSpaces = async (v: BimViewer3d) => {
    const { ids, visible } = await spaces();
    if (!visible && ids.length) await v.hide(ids);
  };
  return {
    showAll: withViewer(async (v) => {
      await v.showAll();
      await hideSpaces(v);
    }),
    show: (ids) => withViewer((v) => (ids.length ? v.show(ids) : Promise.resolve()))(),
    hide: (ids) => withViewer((v) => (ids.length ? v.hide(ids) : Promise.resolve()))(),
    hideOthers: (ids) => withViewer(async (v) => {
      if (!ids.length) return;
      const rest = await others(v, ids);
      if (rest.length) await v.hide(rest);
    })(),
    translucent: (ids) => withViewer((v) => (ids.length ? v.translucent(ids) : Promise.resolve()))(),
    translucentOthers: (ids) => withViewer(async (v) => {
      if (!ids.length) return;
      const rest = await others(v, ids);
      if (rest.length) await v.translucent(rest);
    })(),
    isolate: (ids) => withViewer(async (v) => {
      if (!ids.length) return;
      await v.hideAll();
      await v.show(ids);
    })(),
    lookAt: (ids) => withViewer((v) => (ids.length ? v.lookAt(ids) : Promise.resolve()))(),
  };
}
