// In browser mode the WebSocket bridge must be installed before anything reads window.spotfolio;
// in Electron the preload has already defined it and the installer leaves it alone.
import './bridge/install';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { sendEarlyCalls } from './early';
import { installExactCopy } from './lib/copy-exact';
import { queryClient } from './lib/query';
import './styles.css';

sendEarlyCalls();
installExactCopy(document);

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
