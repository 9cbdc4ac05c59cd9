/**
 * React and the app, loaded by main.tsx once the first calls are on their way: parsing react-dom
 * and the screens overlaps their round trip instead of coming before it.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { queryClient } from './lib/query';

export function renderApp(): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html lacks the #root element');
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
