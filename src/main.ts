import { bootstrapApplication } from '@angular/platform-browser';
import { appConfig } from './app/app.config';
import { App } from './app/app';
import { keyAtStart } from './app/core/api-key';
import { startEarlyReads } from './app/core/early-reads';
import { preferJitlessZod } from './app/core/zod-jitless';

preferJitlessZod();
// Before Angular boots: the page's first API reads overlap the shell's start.
startEarlyReads(location.pathname, keyAtStart());
// Angular's start in a task of its own, not the one that evaluated the modules: together they
// held the main thread 60 ms, and a key typed meanwhile (the first paint's composer) waited.
setTimeout(() => bootstrapApplication(App, appConfig).catch((err) => console.error(err)));
