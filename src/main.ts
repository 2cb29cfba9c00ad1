import { createApplication } from '@angular/platform-browser';
import { appConfig } from './app/app.config';
import { App } from './app/app';
import { keyAtStart } from './app/core/api-key';
import { startEarlyReads } from './app/core/early-reads';
import { nextTask } from './app/core/routing/load-in-tasks';
import { preferJitlessZod } from './app/core/zod-jitless';

preferJitlessZod();
// Before Angular boots: the page's first API reads overlap the shell's start.
startEarlyReads(location.pathname, keyAtStart());
// Angular's start in tasks of its own, not the one that evaluated the modules: together they held
// the main thread 60 ms, and a key typed meanwhile (the first paint's composer) waited. The
// application (its injector, its services, the first page asked) a task before the shell's first
// render: in one, they were the open's longest task (35 ms traced on a quiet machine, 75–140 ms
// at load 12).
setTimeout(async () => {
  try {
    const app = await createApplication(appConfig);
    await nextTask();
    app.bootstrap(App);
  } catch (err) {
    console.error(err);
  }
});
