import { useEffect, useState } from 'react';
import type { Project } from '../../shared/platform-client';
import { platform, signInDone } from './platform';
import { ProjectList } from './ProjectList';
import { ProjectView } from './ProjectView';
import { SignIn } from './SignIn';

export function App() {
  const [ready, setReady] = useState(false);
  const [signedIn, setSignedIn] = useState(false);
  const [project, setProject] = useState<Project>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    signInDone
      .catch((e: Error) => current && setError(e.message))
      .finally(() => {
        if (!current) return;
        setSignedIn(platform.signedIn);
        setReady(true);
      });
    return () => { current = false; };
  }, []);

  const signOut = () => {
    platform.signOut();
    setProject(undefined);
    setSignedIn(false);
  };

  return (
    <main>
      <header>
        <h1>BIM viewers in React</h1>
        {ready && <SignIn signedIn={signedIn} onSignIn={() => platform.signIn().catch((e: Error) => setError(e.message))} onSignOut={signOut} />}
      </header>
      {error && <p id="app-error" role="alert">{error}</p>}
      {signedIn && !project && <ProjectList onOpen={setProject} onError={setError} />}
      {signedIn && project && <ProjectView project={project} onClose={() => setProject(undefined)} onError={setError} />}
    </main>
  );
}
