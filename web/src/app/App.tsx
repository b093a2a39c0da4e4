import { useEffect, useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';

type Readiness = { status: 'ready' | 'not_ready'; checks: Record<string, { status: 'up' | 'down' }> };

/** A placeholder until the portal lands: shows that the server and every service answer. */
function StatusPage() {
  const [commit, setCommit] = useState<string>();
  const [readiness, setReadiness] = useState<Readiness>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    fetch('/api/v1/version/commit', { cache: 'no-store' })
      .then((r) => r.json() as Promise<{ commit: string }>)
      .then((v) => setCommit(v.commit))
      .catch(() => setError('The server does not answer.'));
    fetch('/readyz')
      .then((r) => r.json() as Promise<Readiness>)
      .then(setReadiness)
      .catch(() => setError('The server does not answer.'));
  }, []);

  return (
    <main className="status">
      <h1>Assistant</h1>
      <p>The portal is on its way. The server behind it is running:</p>
      {error && <p role="alert">{error}</p>}
      {readiness && (
        <ul aria-label="Services">
          {Object.entries(readiness.checks).map(([name, check]) => (
            <li key={name} data-status={check.status}>
              {name}: {check.status}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        Build {commit ?? '…'} · <a href="/api/docs">API description</a>
      </p>
    </main>
  );
}

function NotFound() {
  return (
    <main className="status">
      <h1>Page not found</h1>
      <p>
        <a href="/chat">Back to the assistant</a>
      </p>
    </main>
  );
}

const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/chat" replace /> },
  { path: '/chat/*', element: <StatusPage /> },
  { path: '/404', element: <NotFound /> },
  { path: '*', element: <Navigate to="/404" replace /> },
]);

export function App() {
  return <RouterProvider router={router} />;
}
