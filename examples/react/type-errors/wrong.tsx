// Mistakes the package's types must catch (type-errors.test.ts): each line marked
// `expected` must fail with that error, and no other line may.
import { useEffect, useRef } from 'react';
import type { BimViewer3d as Viewer3dElement } from 'bim-viewers';
import { BimViewer2d, BimViewer3d } from 'bim-viewers/react';

declare function takesNumber(value: number): void;

export function Wrapper() {
  return (
    <>
      <BimViewer3d onViewerSelect={(e) => takesNumber(e.detail.selected)} /> {/* expected TS2345: 'string[]' is not assignable to parameter of type 'number' */}
      <BimViewer3d fieldOfView="wide" /> {/* expected TS2322: 'string' is not assignable to type 'number' */}
      <BimViewer3d onViewerSelected={() => undefined} /> {/* expected TS2322: Property 'onViewerSelected' does not exist */}
      <BimViewer2d onViewer2dLoadfail={(e) => takesNumber(e.detail.message)} /> {/* expected TS2345: 'string' is not assignable to parameter of type 'number' */}
    </>
  );
}

export function Intrinsic() {
  const viewer = useRef<Viewer3dElement>(null);
  useEffect(() => {
    viewer.current?.addEventListener('viewer.select', (e) => takesNumber(e.detail.selected)); // expected TS2345: 'string[]' is not assignable to parameter of type 'number'
  }, []);
  return <bim-viewer-3d ref={viewer} fieldOfView="wide" />; // expected TS2322: 'string' is not assignable to type 'number'
}
