import { useState, type FormEvent } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { FieldErrors, fieldErrorsOf } from "../components/FieldErrors";
import { ErrorNotice, Loading } from "../components/status";
import { useSession, useSignIn } from "../session";

export function SignInPage() {
  const session = useSession(); // sets the CSRF cookie the sign-in needs
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const from = (location.state as { from?: string } | null)?.from ?? "/";

  if (session.isPending) return <Loading what="your session" />;
  if (session.data?.authenticated && !signIn.isSuccess) return <Navigate to={from} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ username, password }, { onSuccess: () => navigate(from, { replace: true }) });
  };
  const fields = fieldErrorsOf(signIn.error);

  return (
    <form className="signin card" onSubmit={submit} noValidate>
      <h1>Sign in</h1>
      {session.isError ? <ErrorNotice error={session.error} /> : null}
      <label htmlFor="username">Username</label>
      <input
        id="username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        aria-describedby="username-errors"
      />
      <FieldErrors id="username-errors" messages={fields.username ?? []} />
      <label htmlFor="password">Password</label>
      <input
        id="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby="password-errors"
      />
      <FieldErrors id="password-errors" messages={fields.password ?? []} />
      <button type="submit" disabled={signIn.isPending}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
      {signIn.error && !Object.keys(fields).length ? (
        <ErrorNotice error={signIn.error} />
      ) : null}
    </form>
  );
}
