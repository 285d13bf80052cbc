import { useSyncExternalStore } from "react";

/** A notification; `destructive` for errors (docs/product/api.md#errors). */
export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: "default" | "destructive" | "success";
}

let nextId = 1;
let current: ToastMessage[] = [];
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

/**
 * Shows a toast. At most one is shown at a time (docs/product/api.md#toasts): a new toast replaces the current one.
 * Lasts 5000 ms; F8 focuses the toast area; swipe right 50 px to dismiss (Radix defaults, docs/product/api.md#errors).
 */
export function toast(message: Omit<ToastMessage, "id">): void {
  current = [{ ...message, id: nextId++ }];
  emit();
}

export function dismiss(id: number) {
  current = current.filter((t) => t.id !== id);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => current;
const serverSnapshot = (): ToastMessage[] => [];

/** The toasts to show; empty on the server. */
export function useToasts(): ToastMessage[] {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
