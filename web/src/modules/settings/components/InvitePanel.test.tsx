import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { InvitePanel } from './InvitePanel';

describe('the invite panel', () => {
  beforeEach(() => {
    signedIn();
  });

  it('creates a link with the uses and days chosen, shows it with its uses and expiry', async () => {
    const api = mockFetch({
      'POST /api/v1/invites': json(201, {
        invite_link_id: 'inv_9',
        max_uses: 3,
        uses: 0,
        group_id: null,
        expires_at: '2025-10-24T12:00:00Z',
        created_at: '2025-09-24T12:00:00Z',
      }),
    });
    render(<InvitePanel />, withQueryClient());
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Number of uses'));
    await user.type(screen.getByLabelText('Number of uses'), '3');
    await user.selectOptions(screen.getByLabelText('Expires after'), '30');
    await user.click(screen.getByRole('button', { name: 'Create invite link' }));
    expect(((await screen.findByRole('textbox', { name: 'Invite link' })) as HTMLInputElement).value).toBe(
      `${window.location.origin}/login?invite=inv_9`,
    );
    expect(screen.getByText(/^Used 0 of 3 times · expires /)).toBeTruthy();
    expect(api.calls[0].body).toBe('{"max_uses":3,"expires_in_days":30}');
    expect(screen.getByRole('button', { name: 'Copy invite link' })).toBeTruthy();
  });

  it('checks the number of uses first, and shows the server’s refusal', async () => {
    const api = mockFetch({ 'POST /api/v1/invites': json(403, { detail: 'You are not allowed to create invites.' }) });
    render(<InvitePanel />, withQueryClient());
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Number of uses'));
    await user.type(screen.getByLabelText('Number of uses'), '1001');
    await user.click(screen.getByRole('button', { name: 'Create invite link' }));
    expect(screen.getByRole('alert').textContent).toContain('from 1 to 1000');
    expect(api.calls).toHaveLength(0);
    await user.clear(screen.getByLabelText('Number of uses'));
    await user.type(screen.getByLabelText('Number of uses'), '2');
    await user.click(screen.getByRole('button', { name: 'Create invite link' }));
    expect((await screen.findByText('You are not allowed to create invites.')).getAttribute('role')).toBe('alert');
  });
});
