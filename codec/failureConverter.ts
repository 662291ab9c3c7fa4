/**
 * The failure converter every worker, workflow bundle and client uses: failure messages and stack
 * traces move into an encoded attributes payload, which the codec then encrypts (a provider error
 * body in a message would otherwise sit in the history as plain text). Loaded by path
 * (`failureConverterPath`) because the workflow sandbox bundles it; it must stay free of Node APIs.
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
