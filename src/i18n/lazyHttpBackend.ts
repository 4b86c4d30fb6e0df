import type { BackendModule, InitOptions, ReadCallback, Services } from 'i18next';
import type { HttpBackendOptions } from 'i18next-http-backend';

/**
 * i18next's HTTP backend (i18next-http-backend), fetched the first time a text file is: the sign-in page brings its
 * texts in the document (firstTexts.ts), so a first visit never reads one and the backend's code (~2.5 KiB of the
 * entry script) stays out of its first load (bench/README.md, section 1). Reads wait for it and are then its own,
 * with the same options and the same retries.
 *
 * @example
 * i18next.createInstance({ backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' } }).use(LazyHttpBackend);
 */
export class LazyHttpBackend implements BackendModule<HttpBackendOptions> {
  static readonly type = 'backend';
  readonly type = 'backend';
  /** read(language, namespace, callback), as the HTTP backend's. */
  readonly callbackApi = true;
  private options: HttpBackendOptions = {};
  private services: Services | undefined;
  private backend: Promise<BackendModule<HttpBackendOptions>> | undefined;

  init(services: Services, options: HttpBackendOptions, _i18nextOptions: InitOptions): void {
    this.services = services;
    this.options = options;
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    this.backend ??= import('i18next-http-backend').then(({ default: HttpBackend }) => new HttpBackend(this.services, this.options));
    this.backend.then(
      (backend) => backend.read(language, namespace, callback),
      (error: unknown) => {
        // A failed download is tried again by the next read, and this one is retried as a failed request would be.
        this.backend = undefined;
        callback(error instanceof Error ? error : String(error), true);
      },
    );
  }
}
