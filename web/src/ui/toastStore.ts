import { createStore, useStore } from '../modules/common/state/createStore';

export type ToastTone = 'info' | 'error' | 'success';
export type Toast = { id: number; text: string; tone: ToastTone };

export const toastStore = createStore<{ toasts: Toast[] }>(() => ({ toasts: [] }));
let next = 1;

export function showToast(text: string, tone: ToastTone = 'info', ms = 5000): void {
  const id = next++;
  toastStore.set((s) => ({ toasts: [...s.toasts.slice(-3), { id, text, tone }] }));
  setTimeout(() => dismissToast(id), ms);
}

export function dismissToast(id: number): void {
  toastStore.set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

export const useToasts = () => useStore(toastStore, (s) => s.toasts);
