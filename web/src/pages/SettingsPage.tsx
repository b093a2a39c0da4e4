import { Link } from 'react-router';
import { useAuthStatus } from '../modules/auth/state/authStore';
import { useEffectiveFlags } from '../modules/insider/hooks/insiderQueries';
import { ImportChatsSection } from '../modules/imports/components/ImportChatsSection';
import { ShellPage } from '../modules/layout/components/ShellPage';
import { MemorySummary } from '../modules/memory/components/MemorySummary';
import { McpServersSection } from '../modules/mcp/components/McpServersSection';
import { TimeZoneSetting } from '../modules/reminders/components/TimeZoneSetting';
import { AppearanceSection } from '../modules/settings/components/AppearanceSection';
import { DataSection } from '../modules/settings/components/DataSection';
import { InsiderPanel } from '../modules/settings/components/InsiderPanel';
import { InvitePanel } from '../modules/settings/components/InvitePanel';
import { ProfileSection } from '../modules/settings/components/ProfileSection';
import { SettingsSection } from '../modules/settings/components/SettingsSection';
import { TextMessagesSection } from '../modules/settings/components/TextMessagesSection';
import { VoicePanel } from '../modules/settings/components/VoicePanel';

/** /settings: profile, appearance, memories, voice, text messages, early access and invites (registered users), data (import chats, export, deletion). */
export function SettingsPage() {
  const registered = useAuthStatus() === 'registered';
  const canInvite = useEffectiveFlags().can_create_invite === true;
  return (
    <ShellPage title="Settings" className="settings">
      <SettingsSection title="Profile">
        <ProfileSection registered={registered} />
      </SettingsSection>
      <SettingsSection title="Appearance">
        <AppearanceSection />
      </SettingsSection>
      <SettingsSection title="Memories">
        <MemorySummary />
      </SettingsSection>
      <SettingsSection title="Reminders">
        <TimeZoneSetting />
        <Link className="button button--secondary" to="/reminders">
          Your reminders
        </Link>
      </SettingsSection>
      <SettingsSection title="Tools (MCP servers)">
        <McpServersSection />
      </SettingsSection>
      <SettingsSection title="Voice">
        <VoicePanel />
      </SettingsSection>
      <SettingsSection title="Text messages">
        <TextMessagesSection />
      </SettingsSection>
      {registered && (
        <SettingsSection title="Early access">
          <InsiderPanel />
        </SettingsSection>
      )}
      {registered && canInvite && (
        <SettingsSection title="Invite people">
          <InvitePanel />
        </SettingsSection>
      )}
      <SettingsSection title="Your data">
        <ImportChatsSection />
        <DataSection />
      </SettingsSection>
      <p className="muted small">
        <Link to="/terms">Terms of Use</Link> · <Link to="/privacy">Privacy Policy</Link>
      </p>
    </ShellPage>
  );
}
