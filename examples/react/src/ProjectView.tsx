import { useEffect, useRef, useState } from 'react';
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

type Status = { state: 'loading' | 'loaded' } | { state: 'error'; message: string };

export function ProjectView({ project, onClose, onError }: Props) {
  const viewer3d = useRef<Viewer3dElement>(null);
  const viewer2d = useRef<Viewer2dElement>(null);
  const [loaded3d, setLoaded3d] = useState(false);
  const [loaded2d, setLoaded2d] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [selected, setSelected] = useState<string>();

  useEffect(() => {
    // StrictMode runs this twice in development: only the run still current loads.
    let current = true;
    const fail = (e: Error) => current && setFailure(e.message);
    platform.viewerUrls(project.id).then((urls) => {
      if (!current) return;
      viewer3d.current?.loadUrl(urls.viewer3d).catch(fail);
      viewer2d.current?.loadUrl(urls.viewer2d).catch(fail);
    }, fail);
    return () => { current = false; };
  }, [project.id]);

  useEffect(() => { if (failure) onError(failure); }, [failure, onError]);

  const status: Status = failure ? { state: 'error', message: failure } : { state: loaded3d && loaded2d ? 'loaded' : 'loading' };

  return (
    <section id="project">
      <header>
        <h2>{project.name}</h2>
        <button id="close-project" type="button" onClick={onClose}>Close</button>
        <span id="viewer-status" data-state={status.state}>{status.state === 'error' ? status.message : status.state}</span>
      </header>
      <div className="viewers">
        <BimViewer3d
          ref={viewer3d}
          selectedColor="#ff8800"
          onViewerLoad={() => setLoaded3d(true)}
          onViewerError={(e) => setFailure(e.detail.message)}
          onViewerSelect={(e) => setSelected(e.detail.selected[0])}
        />
        <BimViewer2d
          ref={viewer2d}
          onViewer2dLoad={() => setLoaded2d(true)}
          onViewer2dLoadfail={(e) => setFailure(e.detail.message)}
          onViewer2dError={(e) => setFailure(e.detail.message)}
        />
      </div>
      <Properties viewer={viewer3d} objectId={selected} />
      <TopicForm project={project} viewer={viewer3d} />
    </section>
  );
}
