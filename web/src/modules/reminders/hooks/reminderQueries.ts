import type { Reminder } from '@app/contracts/chat';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import {
  cancelReminder,
  createReminder,
  fetchReminders,
  fetchReminderSettings,
  markReminderSeen,
  saveReminderSettings,
  updateReminder,
} from '../api/remindersApi';

export const reminderKeys = {
  list: (userId: string | null) => ['reminders', userId] as const,
  settings: (userId: string | null) => ['reminders', userId, 'settings'] as const,
};

/** How often the portal asks whether a reminder has come (its notification). */
export const REMINDER_POLL_MS = 20_000;

/**
 * The caller's reminders, asked for again every REMINDER_POLL_MS while a page shows them; `fresh`:
 * also each time the page opens (a reply may have set or cancelled one meanwhile).
 */
export function useReminders({ fresh = false } = {}) {
  const { userId, ready } = useDataSession();
  return useQuery({
    queryKey: reminderKeys.list(userId),
    queryFn: fetchReminders,
    enabled: ready,
    refetchInterval: REMINDER_POLL_MS,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

export function useReminderSettings() {
  const { userId, ready } = useDataSession();
  return useQuery({ queryKey: reminderKeys.settings(userId), queryFn: fetchReminderSettings, enabled: ready });
}

/** The reminders that have come and whose notification was not dismissed yet, oldest first. */
export function dueNotifications(reminders: Reminder[] | undefined): Reminder[] {
  return (reminders ?? [])
    .filter((r) => r.notified_at && !r.seen && r.status !== 'cancelled')
    .sort((a, b) => (a.notified_at! < b.notified_at! ? -1 : 1));
}

export function useReminderActions() {
  const client = useQueryClient();
  const { userId } = useDataSession();
  const refresh = () => client.invalidateQueries({ queryKey: ['reminders', userId] });
  return {
    create: useMutation({ mutationFn: createReminder, onSettled: refresh }),
    update: useMutation({
      mutationFn: ({ id, ...body }: { id: string; text?: string; when?: string }) => updateReminder(id, body),
      onSettled: refresh,
    }),
    cancel: useMutation({ mutationFn: cancelReminder, onSettled: refresh }),
    seen: useMutation({ mutationFn: markReminderSeen, onSettled: refresh }),
    saveSettings: useMutation({ mutationFn: saveReminderSettings, onSettled: refresh }),
  };
}
