import { PageError } from '../errors.js';

/** A final response that was not 2xx: PageError `http_error` carrying the status. */
export class HttpStatusError extends PageError {
  readonly httpStatus: number;

  constructor(httpStatus: number, url: string) {
    super('http_error', `HTTP ${httpStatus} from ${url}`);
    this.name = 'HttpStatusError';
    this.httpStatus = httpStatus;
  }
}
