import { useEffect, useState } from 'react';
import type { Project } from '../../shared/platform-client';
import { platform } from './platform';

interface Props {
  onOpen: (project: Project) => void;
  onError: (message: string) => void;
}

export function ProjectList({ onOpen, onError }: Props) {
  const [projects, setProjects] = useState<Project[]>();

  useEffect(() => {
    let current = true;
    platform.projects().then(
      (list) => current && setProjects(list),
      (e: Error) => current && onError(e.message),
    );
    return () => { current = false; };
  }, [onError]);

  if (!projects) return <p>Loading projects…</p>;
  return (
    <ul id="projects">
      {projects.map((project) => (
        <li key={project.id}>
          <button type="button" data-project-id={project.id} onClick={() => onOpen(project)}>{project.name}</button>
        </li>
      ))}
    </ul>
  );
}
