/**
 * Request options for the API calls a person waits on while the console's files are still on
 * their way (the first paint's message and its prompt answers; its read of pending prompts opens
 * the connection they take). Without credentials (the API reads its key from a header, never a
 * cookie), Chromium keeps these requests in a socket group of their own: the console's scripts, fetched with credentials, fill the six
 * connections HTTP/1.1 allows a host, and a message sent then waited for one of them to free
 * (57 ms traced on a quiet machine, 79 ms median at load 7–9). High priority keeps them first
 * among themselves. The console's own calls (ApiClient) and its conversation's live stream leave
 * without credentials too (spelled there: the console's first bundle is at its budget), so the
 * lazy chunks still on their way never wait behind a stream held open, and a call never behind
 * them.
 */
export const OWN_CONNECTIONS = {
  credentials: 'omit',
  priority: 'high',
} as const satisfies RequestInit;
