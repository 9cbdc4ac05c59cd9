// In browser mode the WebSocket bridge must be installed before anything reads window.spotfolio;
// in Electron the preload has already defined it and the installer leaves it alone.
import './bridge/install';
import { sendEarlyCalls } from './early';
import { installExactCopy } from './lib/copy-exact';
import './styles.css';

// The first screen's calls leave before React and the app are loaded (./root, a chunk of its
// own): the main process answers them while the page parses the rest.
sendEarlyCalls();
installExactCopy(document);

import('./root').then(
  (root) => root.renderApp(),
  (error: unknown) => window.reportError(error),
);
