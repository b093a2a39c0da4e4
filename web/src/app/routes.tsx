import { lazy, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { ConversationList } from '../modules/chat/components/ConversationList';
import { ChatShell } from '../modules/layout/components/ChatShell';
import { ChatSkeleton } from '../modules/layout/components/ChatSkeleton';
import { ChatPage, TypedChatPage } from '../pages/ChatPage';
import { RequireAccount, RequireChatAccess, RequireLogin, RequireOnboarding } from './guards';
import { Root } from './Root';

/** Pages other than the chat load on demand, so the chat's first load stays small. */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const LoginPage = page(() => import('../pages/LoginPage'), 'LoginPage');
const LoginSuccessPage = page(() => import('../pages/LoginSuccessPage'), 'LoginSuccessPage');
const LoginInviteErrorPage = page(() => import('../pages/LoginInviteErrorPage'), 'LoginInviteErrorPage');
const KbaLoginPage = page(() => import('../pages/KbaLoginPage'), 'KbaLoginPage');
const KbaPage = page(() => import('../pages/KbaPage'), 'KbaPage');
const NewUserPage = page(() => import('../pages/NewUserPage'), 'NewUserPage');
const OnboardingPage = page(() => import('../pages/OnboardingPage'), 'OnboardingPage');
const ConfirmMemoriesPage = page(() => import('../pages/ConfirmMemoriesPage'), 'ConfirmMemoriesPage');
const SettingsPage = page(() => import('../pages/SettingsPage'), 'SettingsPage');
const MemoriesPage = page(() => import('../pages/MemoriesPage'), 'MemoriesPage');
const RemindersPage = page(() => import('../pages/RemindersPage'), 'RemindersPage');
const ProjectPage = page(() => import('../pages/ProjectPage'), 'ProjectPage');
const McpCallbackPage = page(() => import('../pages/McpCallbackPage'), 'McpCallbackPage');
const SharedChatPage = page(() => import('../pages/SharedChatPage'), 'SharedChatPage');
const TermsPage = page(() => import('../pages/LegalPages'), 'TermsPage');
const PrivacyPage = page(() => import('../pages/LegalPages'), 'PrivacyPage');
const info = () => import('../pages/InfoPages');
const NotFoundPage = page(info, 'NotFoundPage');
const ShareNotFoundPage = page(info, 'ShareNotFoundPage');
const AboutPage = page(info, 'AboutPage');
const JobsPage = page(info, 'JobsPage');
const SuggestedQueriesPage = page(info, 'SuggestedQueriesPage');
const TextServicePage = page(() => import('../pages/TextServicePage'), 'TextServicePage');
const GroupSearchPage = page(() => import('../pages/GroupSearchPage'), 'GroupSearchPage');
const GroupInvitePage = page(() => import('../pages/GroupInvitePage'), 'GroupInvitePage');
const DevPhonePage = page(() => import('../pages/DevPhonePage'), 'DevPhonePage');
const LoadingTestPage = page(() => import('../pages/LoadingTestPage'), 'LoadingTestPage');

/** Every route of spec section 2 with its guard. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/', element: <Navigate to="/chat" replace /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/login-success', element: <LoginSuccessPage /> },
      { path: '/login-invite-error', element: <LoginInviteErrorPage /> },
      { path: '/kba/login/:campaignName', element: <KbaLoginPage /> },
      {
        path: '/kba/:campaignName',
        element: (
          <RequireAccount>
            <KbaPage />
          </RequireAccount>
        ),
      },
      {
        path: '/new-user',
        element: (
          <RequireAccount>
            <NewUserPage />
          </RequireAccount>
        ),
      },
      {
        path: '/onboarding',
        element: (
          <RequireOnboarding>
            <OnboardingPage />
          </RequireOnboarding>
        ),
      },
      {
        path: '/confirm-memories',
        element: (
          <RequireOnboarding>
            <ConfirmMemoriesPage />
          </RequireOnboarding>
        ),
      },
      {
        path: '/suggested-queries',
        element: (
          <RequireLogin>
            <SuggestedQueriesPage />
          </RequireLogin>
        ),
      },
      { path: '/group-search/invite/:groupChannelInviteLinkId', element: <GroupInvitePage /> },
      {
        path: '/group-search/:channelUrl',
        element: (
          <RequireLogin>
            <GroupSearchPage />
          </RequireLogin>
        ),
      },
      { path: '/text', element: <TextServicePage /> },
      // The development phone: answers /404 unless the server says it is there (GET /api/v1/sms/service).
      { path: '/dev/phone', element: <DevPhonePage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/jobs', element: <JobsPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/share/404/:chatId?', element: <ShareNotFoundPage /> },
      { path: '/404', element: <NotFoundPage /> },
      { path: '/loading-test', element: <LoadingTestPage /> },
      {
        element: <ChatShell sidebar={<ConversationList />} />,
        children: [
          {
            path: '/settings',
            element: (
              <RequireLogin>
                <SettingsPage />
              </RequireLogin>
            ),
          },
          {
            path: '/memories',
            element: (
              <RequireLogin>
                <MemoriesPage />
              </RequireLogin>
            ),
          },
          {
            path: '/settings/mcp-callback',
            element: (
              <RequireLogin>
                <McpCallbackPage />
              </RequireLogin>
            ),
          },
          {
            path: '/reminders',
            element: (
              <RequireLogin>
                <RemindersPage />
              </RequireLogin>
            ),
          },
          {
            path: '/projects/:projectId',
            element: (
              <RequireLogin>
                <ProjectPage />
              </RequireLogin>
            ),
          },
          {
            path: '/chat/:chatId?',
            element: (
              <RequireChatAccess loading={<ChatSkeleton />}>
                <ChatPage />
              </RequireChatAccess>
            ),
          },
          {
            path: '/share/:shareId',
            element: (
              <RequireChatAccess>
                <SharedChatPage />
              </RequireChatAccess>
            ),
          },
          {
            path: '/:type/:chatId?',
            element: (
              <RequireChatAccess loading={<ChatSkeleton />}>
                <TypedChatPage />
              </RequireChatAccess>
            ),
          },
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
