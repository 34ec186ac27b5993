// A page for example.test.ts, served by Vite's dev server (React's development build, so
// StrictMode mounts, unmounts and mounts again): the wrapper sets its props as the
// element's properties and calls its on... props with the events' details.
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { BimViewer3d as Viewer3dElement } from 'bim-viewers';
import { BimViewer3d } from 'bim-viewers/react';

const model = new URLSearchParams(location.search).get('model')!;

function Viewer({ color }: { color: string }) {
  const viewer = useRef<Viewer3dElement>(null);
  const [loads, setLoads] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);

  useEffect(() => {
    let current = true;
    // After a task, as a real app's first await would be: StrictMode's first run is over by then.
    setTimeout(() => { if (current) void viewer.current?.loadUrl(model); });
    return () => { current = false; };
  }, []);

  return (
    <div id="viewer" data-loads={loads} data-selected={selected.join(' ')}>
      <BimViewer3d
        ref={viewer}
        style={{ display: 'block', width: 400, height: 300 }}
        selectedColor={color}
        onViewerLoad={() => setLoads((n) => n + 1)}
        onViewerSelect={(e) => setSelected(e.detail.selected)}
      />
    </div>
  );
}

function Check() {
  const [shown, setShown] = useState(true);
  const [color, setColor] = useState('#ff8800');
  return (
    <>
      <button id="toggle" type="button" onClick={() => setShown(!shown)}>Toggle</button>
      <button id="recolor" type="button" onClick={() => setColor('#0088ff')}>Recolor</button>
      {shown && <Viewer color={color} />}
    </>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><Check /></StrictMode>);
