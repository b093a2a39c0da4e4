import { COMPOSER_ID } from './shortcuts';

/**
 * What the shortcuts do in the chat, through the controls a pointer would use (so a shortcut does
 * exactly what its button does, the copied HTML and the edit box included).
 */
export function focusComposer(): boolean {
  const composer = document.getElementById(COMPOSER_ID) as HTMLTextAreaElement | null;
  if (!composer) return false;
  composer.focus();
  composer.setSelectionRange(composer.value.length, composer.value.length);
  return true;
}

const lastOf = (selector: string) => {
  const all = document.querySelectorAll<HTMLElement>(selector);
  return all[all.length - 1] ?? null;
};

/** Copies the last reply (its Copy button); false when there is none. */
export function copyLastReply(): boolean {
  const button = lastOf('.message--assistant')?.querySelector<HTMLButtonElement>('button[aria-label="Copy reply"]');
  if (!button) return false;
  button.click();
  return true;
}

/** Opens the last message of the user's for editing (its Edit button); false when there is none. */
export function editLastMessage(): boolean {
  const button = lastOf('.message--user')?.querySelector<HTMLButtonElement>('button[aria-label="Edit message"]');
  if (!button || button.disabled) return false;
  button.click();
  return true;
}
