import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { BimViewer2d as Viewer2dElement, BimViewer3d as Viewer3dElement } from 'bim-viewers';
import { BimViewer2d, BimViewer3d } from 'bim-viewers/react';
import type { Project } from '../../shared/platform-client';
import { platform } from './platform';
import { Properties } from './Properties';
import { TopicForm } from './TopicForm';

interface Props {
  project: Project;
  onClose: () => void;
  onError: (message: string) => void;
}

export function ProjectView({ project, onClose, onError }: Props) {
  const viewer3d = useRef<Viewer3dElement>(null);
  const viewer2d = useRef<Viewer2dElement>(null);
  const [loaded3d, setLoaded3d] = useState(false);
  const [loaded2d, setLoaded2d] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [selected, setSelected] = useState<string>();

  const fail = (message: string) => {
    setFailure(message);
    onError(message);
  };
  const failLoading = useEffectEvent(fail); // the latest fail, without making it a dependency of the load

  useEffect(() => {
    // StrictMode runs this twice in development: only the run still current loads.
    let current = true;
    const failed = (e: Error) => current && failLoading(e.message);
    platform.viewerUrls(project.id).then((urls) => {
      if (!current) return;
      viewer3d.current?.loadUrl(urls.viewer3d).catch(failed);
      viewer2d.current?.loadUrl(urls.viewer2d).catch(failed);
    }, failed);
    return () => { current = false; };
  }, [project.id]);

  const state = failure ? 'error' : loaded3d && loaded2d ? 'loaded' : 'loading';

  return (
    <section id="project">
      <header>
        <h2>{project.name}</h2>
        <button id="close-project" type="button" onClick={onClose}>Close</button>
        <span id="viewer-status" data-state={state}>{failure ?? state}</span>
      </header>
      <div className="viewers">
        <BimViewer3d
          ref={viewer3d}
          selectedColor="#ff8800"
          onViewerLoad={() => setLoaded3d(true)}
          onViewerError={(e) => fail(e.detail.message)}
          onViewerSelect={(e) => setSelected(e.detail.selected[0])}
        />
        <BimViewer2d
          ref={viewer2d}
          onViewer2dLoad={() => setLoaded2d(true)}
          onViewer2dLoadfail={(e) => fail(e.detail.message)}
          onViewer2dError={(e) => fail(e.detail.message)}
        />
      </div>
      <Properties viewer={viewer3d} objectId={selected} />
      <TopicForm project={project} viewer={viewer3d} />
    </section>
  );
}
