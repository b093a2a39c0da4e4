import { useState, type FormEvent } from 'react';
import { showToast } from '../../../ui/toastStore';
import { saveProfile } from '../../auth/api/onboardingApi';
import { setUser, useUser } from '../../auth/state/authStore';
import { useBusyAction } from '../../common/hooks/useBusyAction';

/** The name in the profile form: saved when it changed, with a toast either way. */
export function useProfileName() {
  const user = useUser();
  const [name, setName] = useState(user?.name ?? '');
  const save = useBusyAction((next: string) => saveProfile(next), {
    fallback: 'The name could not be saved.',
    onSuccess: (saved) => {
      setUser(saved);
      showToast('Your name was saved.', 'success');
    },
    onError: (message) => showToast(message, 'error'),
  });
  const trimmed = name.trim();
  return {
    name,
    setName,
    saving: save.busy,
    canSave: !save.busy && !!trimmed && trimmed !== user?.name,
    submit: (event: FormEvent) => {
      event.preventDefault();
      save.run(trimmed);
    },
  };
}
