import { readCall, writeCall } from '../../common/api/dataCall';
import { apiJson, jsonBody } from '../../common/api/http';

/** The text service as the server offers it (GET /api/v1/sms/service, public). */
export type SmsService = {
  /** The assistant's number (E.164), null when no number is set up on this server. */
  phone_number: string | null;
  monthly_allowance: number;
  max_segments: number;
  /** The development phone (/dev/phone) is available. */
  dev_phone: boolean;
  /** Numbers of group threads the development phone may text, when the server lists them. */
  group_numbers?: string[];
};

export type GroupInvite = { group_name: string; member_count: number; expires_at: string };

export type SmsMe = { phone_number: string | null; opted_out: boolean; period: string; texts_used: number; monthly_allowance: number };

export type GroupMember = { label: string; is_you: boolean };
export type GroupChannel = { channel_url: string; name: string; phone_number: string; created_at: string; members: GroupMember[] };

export type Highlight = { start: number; end: number };
export type GroupMessage = {
  message_id: string;
  sender: string;
  is_assistant: boolean;
  body: string;
  created_at: string;
  highlights: Highlight[];
};

export type GroupInviteLink = { invite_id: string; url: string; expires_at: string };

/** A text the development inbox holds: what was sent to one number. */
export type DevSms = {
  message_id: string;
  to: string;
  from?: string | null;
  body: string;
  purpose: string;
  status: string;
  created_at: string;
};

export const GROUP_NAME_MAX = 60;
export const SEARCH_LIMIT = 50;

const enc = encodeURIComponent;

// Public calls: no login needed, errors are the answer's detail, else `API Error: {status}`.
export const fetchSmsService = () => apiJson<SmsService>('/api/v1/sms/service');
export const fetchGroupInvite = (inviteId: string) => apiJson<GroupInvite>(`/api/v1/sms/group-invites/${enc(inviteId)}`);
export const joinGroupInvite = (inviteId: string, phoneNumber: string) =>
  apiJson<{ status: 'confirmation_sent' }>(`/api/v1/sms/group-invites/${enc(inviteId)}/join`, {
    method: 'POST',
    ...jsonBody({ phone_number: phoneNumber }),
  });

// The caller's own data (bearer).
export const fetchSmsMe = () => readCall<SmsMe | null>('/api/v1/sms/me', null);
export const fetchGroups = async () => (await readCall<{ groups: GroupChannel[] }>('/api/v1/sms/groups', { groups: [] })).groups;
export const fetchGroup = (channelUrl: string) => readCall<GroupChannel | null>(`/api/v1/sms/groups/${enc(channelUrl)}`, null);
export async function searchGroupMessages(channelUrl: string, q: string, limit = SEARCH_LIMIT): Promise<GroupMessage[]> {
  const query = new URLSearchParams({ q, limit: String(limit) });
  return (await readCall<{ results: GroupMessage[] }>(`/api/v1/sms/groups/${enc(channelUrl)}/messages?${query}`, { results: [] })).results;
}
export const createGroup = (name: string) => writeCall<GroupChannel>('/api/v1/sms/groups', { method: 'POST', ...jsonBody({ name }) });
export const createGroupInviteLink = (channelUrl: string) =>
  writeCall<GroupInviteLink>(`/api/v1/sms/groups/${enc(channelUrl)}/invites`, { method: 'POST' });
export const revokeGroupInviteLink = (channelUrl: string, inviteId: string) =>
  writeCall<void>(`/api/v1/sms/groups/${enc(channelUrl)}/invites/${enc(inviteId)}`, { method: 'DELETE' });

// The development phone (console sender, this machine only).
export const sendDevText = (body: { from: string; body: string; to?: string }) =>
  apiJson<{ message_sid: string }>('/api/v1/dev/sms/inbound', { method: 'POST', ...jsonBody(body) });
export const fetchDevTexts = (to: string) => apiJson<{ enabled: boolean; messages: DevSms[] }>(`/api/v1/dev/sms/messages?to=${enc(to)}`);
