interface Props {
  signedIn: boolean;
  onSignIn: () => void;
  onSignOut: () => void;
}

export function SignIn({ signedIn, onSignIn, onSignOut }: Props) {
  return signedIn
    ? <button id="sign-out" type="button" onClick={onSignOut}>Sign out</button>
    : <button id="sign-in" type="button" onClick={onSignIn}>Sign in with the platform</button>;
}
