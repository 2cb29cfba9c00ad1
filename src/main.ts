import { bootstrapApplication } from '@angular/platform-browser';
import { appConfig } from './app/app.config';
import { App } from './app/app';
import { keyAtStart } from './app/core/api-key';
import { startEarlyReads } from './app/core/early-reads';
import { preferJitlessZod } from './app/core/zod-jitless';

preferJitlessZod();
// Before Angular boots: the page's first API reads overlap the shell's start.
startEarlyReads(location.pathname, keyAtStart());
bootstrapApplication(App, appConfig).catch((err) => console.error(err));
