import { QueryClient } from "@tanstack/react-query";

/**
 * TanStack Query defaults of docs/product/api.md#client-data-freshness: data fresh for 30 s, refetched on window focus and on mount,
 * no polling, no retries for reads or writes.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: true, refetchOnMount: true, retry: false },
      mutations: { retry: false },
    },
  });
}
