// The same code written right (type-errors.test.ts): it must compile clean.
import { useEffect, useRef } from 'react';
import type { BimViewer3d as Viewer3dElement } from 'bim-viewers';
import { BimViewer2d, BimViewer3d } from 'bim-viewers/react';

declare function takesStrings(value: string[]): void;
declare function takesString(value: string): void;

export function Wrapper() {
  return (
    <>
      <BimViewer3d onViewerSelect={(e) => takesStrings(e.detail.selected)} />
      <BimViewer3d fieldOfView={45} />
      <BimViewer2d onViewer2dLoadfail={(e) => takesString(e.detail.message)} />
    </>
  );
}

export function Intrinsic() {
  const viewer = useRef<Viewer3dElement>(null);
  useEffect(() => {
    viewer.current?.addEventListener('viewer.select', (e) => takesStrings(e.detail.selected));
  }, []);
  return <bim-viewer-3d ref={viewer} fieldOfView={45} />;
}
