import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What the OAuth flow keeps for one server (sealed at rest as one JSON). */
export interface McpOAuthState {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
  /** The `state` sent with the authorization request: `<server id>.<random>`. */
  state?: string;
  /** Where the user must go to authorise (while waiting for the callback). */
  authorizationUrl?: string;
}

/**
 * The MCP SDK's OAuth 2.1 client side for one user's server (the MCP authorisation
 * specification: protected-resource and authorisation-server metadata, dynamic client
 * registration, PKCE, refresh): it keeps what the flow needs in the server's row through `save`.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly serverId: string,
    private readonly redirectTo: string,
    private readonly kept: McpOAuthState,
    private readonly save: (state: McpOAuthState) => Promise<void>,
  ) {}

  get redirectUrl(): string {
    return this.redirectTo;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Assistant',
      redirect_uris: [this.redirectTo],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async state(): Promise<string> {
    this.kept.state = `${this.serverId}.${randomBytes(24).toString('base64url')}`;
    await this.save(this.kept);
    return this.kept.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.kept.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.kept.client = client;
    await this.save(this.kept);
  }

  tokens(): OAuthTokens | undefined {
    return this.kept.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.kept.tokens = tokens;
    this.kept.verifier = undefined;
    this.kept.authorizationUrl = undefined;
    await this.save(this.kept);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.kept.authorizationUrl = url.toString();
    await this.save(this.kept);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    this.kept.verifier = verifier;
    await this.save(this.kept);
  }

  codeVerifier(): string {
    if (!this.kept.verifier) throw new Error('No authorisation is under way for this server');
    return this.kept.verifier;
  }
}
