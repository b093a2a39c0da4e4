import { DEFAULT_FLAGS, effectiveFlags, FlagsService } from './flags.service';
import type { InsiderStatusEntity } from './insider-status.entity';
import type { InsiderStatusRepository } from './insider-status.repository';

const stored = {
  dislike_button_verbose_feedback: true,
  show_rewritten_user_message: false,
  show_auto_model_selection: true,
  enable_ko_search: null,
  can_create_invite: true,
};

describe('effective insider flags (spec section 4)', () => {
  it('are the stored flags when insider mode is on', () => {
    expect(effectiveFlags(stored, true)).toEqual(stored);
  });

  it('are all null but can_create_invite when insider mode is off', () => {
    expect(effectiveFlags(stored, false)).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
  });

  it('default to all null and no invites for a non-insider, whatever is stored', async () => {
    const row = { userId: 'u', isInsider: false, isInsiderEnabled: true, flags: stored } as InsiderStatusEntity;
    const repository = { find: async () => row } as unknown as InsiderStatusRepository;
    const service = new FlagsService(repository, { INSIDER_USER_IDS: [] });
    expect(await service.effective('u')).toEqual({ is_insider: false, is_insider_enabled: false, effective: DEFAULT_FLAGS });
  });

  it('treat an operator allow-listed user as an insider', async () => {
    const repository = { find: async () => null } as unknown as InsiderStatusRepository;
    const service = new FlagsService(repository, { INSIDER_USER_IDS: ['u'] });
    expect(await service.effective('u')).toMatchObject({ is_insider: true, is_insider_enabled: false });
  });
});
