import type { SmsMessage } from '@app/contracts/sms';
import { API } from '@app/contracts/gateway';
import type { RouteResponse } from '@app/contracts/gateway/route';
import { call } from '../../common/api/http';

// The text channel's calls, each the route the contracts declare (API.sms, API.dev) with its types.

export type { GroupChannel, SmsMe, SmsServiceInfo } from '@app/contracts/sms';
export type GroupInvite = RouteResponse<typeof API.sms.invite>;
export type GroupMember = RouteResponse<typeof API.sms.group>['members'][number];
export type GroupMessage = RouteResponse<typeof API.sms.groupMessages>['results'][number];
export type Highlight = GroupMessage['highlights'][number];
export type GroupInviteLink = RouteResponse<typeof API.sms.createInvite>;
/** A text the development inbox holds: what was sent to one number. */
export type DevSms = SmsMessage;

/** The longest group name: CreateGroupBodySchema's, repeated so the pages do not load the schemas (a test keeps them equal). */
export const GROUP_NAME_MAX = 60;
export const SEARCH_LIMIT = 50;

// Public calls: no login needed, errors are the answer's detail, else `API Error: {status}`.
export const fetchSmsService = () => call(API.sms.service, {}, { public: true });
export const fetchGroupInvite = (inviteId: string) => call(API.sms.invite, { params: { invite_id: inviteId } }, { public: true });
export const joinGroupInvite = (inviteId: string, phoneNumber: string) =>
  call(API.sms.join, { params: { invite_id: inviteId }, body: { phone_number: phoneNumber } }, { public: true });

// The caller's own data (bearer).
export const fetchSmsMe = () => call(API.sms.me, {}, { orElse: null });
export const fetchGroups = async () => (await call(API.sms.groups, {}, { orElse: { groups: [] } })).groups;
export const fetchGroup = (channelUrl: string) => call(API.sms.group, { params: { channel_url: channelUrl } }, { orElse: null });
export async function searchGroupMessages(channelUrl: string, q: string, limit = SEARCH_LIMIT): Promise<GroupMessage[]> {
  const input = { params: { channel_url: channelUrl }, query: { q, limit } };
  return (await call(API.sms.groupMessages, input, { orElse: { results: [] } })).results;
}
export const createGroup = (name: string) => call(API.sms.createGroup, { body: { name } });
export const createGroupInviteLink = (channelUrl: string) => call(API.sms.createInvite, { params: { channel_url: channelUrl } });
export const leaveGroup = (channelUrl: string) => call(API.sms.leaveGroup, { params: { channel_url: channelUrl } });
export const revokeGroupInviteLink = (channelUrl: string, inviteId: string) =>
  call(API.sms.revokeInvite, { params: { channel_url: channelUrl, invite_id: inviteId } });

// The development phone (console sender, this machine only).
export const sendDevText = (body: { from: string; body: string; to?: string }) => call(API.dev.phoneInbound, { body }, { public: true });
export const fetchDevTexts = (to: string) => call(API.dev.smsMessages, { query: { to } }, { public: true });
