import { useState, type FormEvent, type RefObject } from 'react';
import type { BimViewer3d } from 'bim-viewers';
import type { Project } from '../../shared/platform-client';
import { platform } from './platform';

interface Props {
  project: Project;
  viewer: RefObject<BimViewer3d | null>;
}

type Status = { state: 'created'; guid: string } | { state: 'error'; message: string };

/** A BCF topic with the 3D view (camera, selection, snapshot) as its viewpoint. */
export function TopicForm({ project, viewer }: Props) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const viewpoint = await viewer.current!.getBcfViewpoint({ snapshot: true });
      const topic = await platform.createTopic(project.id, title, viewpoint);
      setStatus({ state: 'created', guid: topic.guid });
      setTitle('');
    } catch (e) {
      setStatus({ state: 'error', message: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="topic-form" onSubmit={submit}>
      <input id="topic-title" required placeholder="Topic title" value={title} onChange={(e) => setTitle(e.target.value)} />
      <button id="create-topic" type="submit" disabled={busy}>Create topic</button>
      {status?.state === 'created' && <p id="topic-status" data-state="created" data-guid={status.guid}>Topic created.</p>}
      {status?.state === 'error' && <p id="topic-status" data-state="error">{status.message}</p>}
    </form>
  );
}
