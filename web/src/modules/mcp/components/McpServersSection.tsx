import { useState, type FormEvent } from 'react';
import { messageOf } from '../../common/utils/errors';
import { useMcpActions, useMcpServers } from '../hooks/mcpQueries';

/** Settings: the user's own MCP servers (Streamable HTTP): add one, switch its tools on or off, list them again, remove it. */
export function McpServersSection() {
  const { data: servers } = useMcpServers();
  const { add, toggle, relist, remove } = useMcpActions();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [useOAuth, setUseOAuth] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { name: name.trim(), url: url.trim(), ...(useOAuth ? { oauth: true } : token.trim() ? { access_token: token.trim() } : {}) },
      {
        onSuccess: (server) => {
          setName('');
          setUrl('');
          setToken('');
          // OAuth: on to the server's authorisation page; it comes back to /settings/mcp-callback.
          if (server.authorization_url) window.location.assign(server.authorization_url);
        },
      },
    );
  };
  const failure = add.error ?? toggle.error ?? relist.error ?? remove.error;
  return (
    <div className="mcp-servers">
      <p className="muted small">
        Tools of your own for the assistant: an MCP server (Streamable HTTP) at a public address. Its access token is kept encrypted and
        never shown again.
      </p>
      {servers?.map((server) => (
        <section key={server.server_id} className="mcp-server" aria-label={`MCP server ${server.name}`}>
          <header className="mcp-server__header">
            <strong>{server.name}</strong> <span className="muted small">{server.url}</span>
            {server.auth !== 'none' && <span className="badge badge--muted">{server.auth === 'oauth' ? 'OAuth' : 'token'}</span>}
            {server.status === 'needs_authorization' && <span className="badge">not authorised yet</span>}
          </header>
          <ul className="mcp-server__tools">
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <label>
                  <input
                    type="checkbox"
                    checked={tool.enabled}
                    disabled={toggle.isPending}
                    onChange={(e) => toggle.mutate({ id: server.server_id, tool: tool.name, enabled: e.target.checked })}
                  />{' '}
                  {tool.name}
                </label>{' '}
                <span className="muted small">{tool.description}</span>
              </li>
            ))}
          </ul>
          <div className="mcp-server__actions">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => relist.mutate(server.server_id)}
              disabled={relist.isPending}
            >
              List tools again
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => remove.mutate(server.server_id)}
              disabled={remove.isPending}
            >
              Remove
            </button>
          </div>
        </section>
      ))}
      <form className="mcp-form" onSubmit={submit} aria-label="Add an MCP server">
        <label className="field">
          <span className="field__label">Name</span>
          <input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label className="field">
          <span className="field__label">Server URL</span>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://tools.example/mcp" required />
        </label>
        <label className="field">
          <span className="field__label">Access token (optional)</span>
          <input type="password" value={token} autoComplete="off" disabled={useOAuth} onChange={(e) => setToken(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={useOAuth} onChange={(e) => setUseOAuth(e.target.checked)} /> Sign in to the server (OAuth)
        </label>
        <button type="submit" className="button button--primary" disabled={add.isPending}>
          Add server
        </button>
      </form>
      {failure && (
        <p className="notice notice--error" role="alert">
          {messageOf(failure)}
        </p>
      )}
    </div>
  );
}
