// Component tests render real Material components in a DOM emulation; on a loaded CI machine with two
// cores one render can take seconds, so the budget is a loaded machine's, not a quiet laptop's.
vi.setConfig({ testTimeout: 30_000 });
