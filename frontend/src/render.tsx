/** Draws the app into the page. Apart from main.tsx because of React DOM, the largest library
 * (66 KB gzipped): main.tsx asks the API for the page's data before this module has come. */
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./App";

export function renderApp(root: HTMLElement, queryClient: QueryClient) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
