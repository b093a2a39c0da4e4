import { routeEntries, type RouteDeclaration } from './route';
import { operationsRoutes } from './routes/operations';
import { versionRoutes } from './routes/version';
import { authRoutes } from './routes/auth';
import { onboardingRoutes } from './routes/onboarding';
import { accountRoutes } from './routes/account';
import { userConfigRoutes } from './routes/user-config';
import { chatRoutes } from './routes/chat';
import { projectRoutes } from './routes/projects';
import { importRoutes } from './routes/imports';
import { filesRoutes } from './routes/files';
import { devRoutes } from './routes/dev';
import { smsRoutes } from './routes/sms';
import { mcpRoutes } from './routes/mcp';
import { remindersRoutes } from './routes/reminders';
import { memoryRoutes } from './routes/memory';
import { voiceRoutes } from './routes/voice';

/**
 * Every route of the gateway, by area: the one place a route is declared (each area in its file
 * under ./routes). The gateway serves exactly these (a test walks its router), /api/docs describes
 * them, the web client calls them. A new area is one file and one line here.
 */
export const API = {
  operations: operationsRoutes,
  version: versionRoutes,
  auth: authRoutes,
  onboarding: onboardingRoutes,
  account: accountRoutes,
  userConfig: userConfigRoutes,
  chat: chatRoutes,
  projects: projectRoutes,
  imports: importRoutes,
  files: filesRoutes,
  dev: devRoutes,
  sms: smsRoutes,
  mcp: mcpRoutes,
  reminders: remindersRoutes,
  memory: memoryRoutes,
  voice: voiceRoutes,
} as const;

/** Every route the gateway serves, in the order of the areas above. */
export const HTTP_ROUTES: readonly RouteDeclaration[] = routeEntries(API).map(([, route]) => route);
