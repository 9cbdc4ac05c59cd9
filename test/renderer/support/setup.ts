/**
 * Set up before each renderer test file (vitest.config.ts): the files of a worker share its
 * modules and, in jsdom, its one window, so what a test drew goes with the test, and what a file
 * left in the window goes with the file, as if each file had a window of its own.
 */
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

const inDom = typeof document !== 'undefined';

afterEach(() => {
  if (!inDom) return;
  cleanup();
  delete (window as { spotfolio?: unknown }).spotfolio;
});

afterAll(() => {
  if (!inDom) return;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  sessionStorage.clear();
  localStorage.clear();
});
