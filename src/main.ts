import { createApplication } from '@angular/platform-browser';
import { appConfig } from './app/app.config';
import { App } from './app/app';
import { keyAtStart } from './app/core/api-key';
import { startEarlyReads } from './app/core/early-reads';
import { nextTask } from './app/core/routing/load-in-tasks';
import { preferJitlessZod } from './app/core/zod-jitless';
import { TYPING_PAUSE } from './first-paint/typing-pause-name';

preferJitlessZod();
// Before Angular boots: the page's first API reads overlap the shell's start.
startEarlyReads(location.pathname, keyAtStart());
// Angular's start in tasks of its own, not the one that evaluated the modules: together they held
// the main thread 60 ms, and a key typed meanwhile (the first paint's composer) waited. The
// application (its injector, its services, the first page asked) a task before the shell's first
// render: in one, they were the open's longest task (35 ms traced on a quiet machine, 75–140 ms
// at load 12).
// It waits while the person types in the first paint's composer (and sends with Enter): the first
// paint's wait (first-paint/handoff.ts), published before this script was asked for.
const typingPause = (globalThis as { [name: symbol]: (() => Promise<void>) | undefined })[
  Symbol.for(TYPING_PAUSE)
];
setTimeout(async () => {
  try {
    await typingPause?.();
    const app = await createApplication(appConfig);
    await nextTask();
    app.bootstrap(App);
  } catch (err) {
    console.error(err);
  }
});
