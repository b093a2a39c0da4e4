import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { messageOf } from '../modules/common/utils/errors';
import { ShellPage } from '../modules/layout/components/ShellPage';
import { finishMcpOAuth } from '../modules/mcp/api/mcpApi';
import { Spinner } from '../ui/Spinner';

/** /settings/mcp-callback: where an MCP server's OAuth authorisation comes back; it is finished, then on to settings. */
export function McpCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const serverId = state?.split('.')[0];
    if (!code || !state || !serverId) {
      setError(params.get('error_description') ?? params.get('error') ?? 'The authorisation did not come back with a code.');
      return;
    }
    finishMcpOAuth(serverId, { code, state }).then(
      () => navigate('/settings', { replace: true }),
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, [params, navigate]);
  return (
    <ShellPage title="Connecting a tool server" className="mcp-callback">
      {error ? (
        <p className="notice notice--error" role="alert">
          {error} <Link to="/settings">Back to settings</Link>
        </p>
      ) : (
        <Spinner label="Finishing the authorisation" />
      )}
    </ShellPage>
  );
}
