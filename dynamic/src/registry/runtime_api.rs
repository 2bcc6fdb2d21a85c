//! Runtime APIs (V15+) and pallet view functions (V16) by name: what to send
//! to a node's `state_call` and how to read its answer.
//!
//! ```text
//! let call = registry.runtime_api("Metadata", "metadata_versions")?; // Arc<RuntimeApiCall>
//! let (method, data) = registry.runtime_api_request(&call, &[])?;   // "Metadata_metadata_versions", []
//! let versions = registry.decode_runtime_api_result(&call, &answer)?; // [14, 15, 16]
//!
//! let view = registry.view_function("Proxy", "check_permissions")?;
//! let (method, data) = registry.view_function_request(&view, &[call, proxy_type])?;
//! let allowed = registry.decode_view_function_answer(&view, &answer)?;
//! ```

use std::sync::Arc;

use ferroscale_metadata::{Param, RuntimeApiMethod};
use ferroscale_value::Value;

use crate::decode::decode_value;
use crate::encode::encode_value;
use crate::error::{Error, ItemKind};
use crate::graph::TypeIdx;

use super::Registry;

/// The runtime API through which a node runs view functions.
const VIEW_FUNCTION_API: (&str, &str) = ("RuntimeViewFunction", "execute_view_function");

/// A runtime API method or view function, resolved against the loaded
/// registry: its inputs in order and its output, as graph nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSignature {
    /// The runtime API trait (`Metadata`) or the view function's pallet.
    pub owner: String,
    /// The method or view function name.
    pub name: String,
    /// Parameter names and types, in order.
    pub inputs: Vec<(String, TypeIdx)>,
    /// The result type.
    pub output: TypeIdx,
    /// Documentation lines.
    pub docs: Vec<String>,
}

/// A runtime API method: [`Registry::runtime_api`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeApiCall {
    /// Names, inputs and output.
    pub signature: CallSignature,
}

impl RuntimeApiCall {
    /// The name `state_call` takes: `Trait_method`.
    pub fn method_name(&self) -> String {
        format!("{}_{}", self.signature.owner, self.signature.name)
    }
}

/// A pallet view function: [`Registry::view_function`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewFunctionCall {
    /// Names, inputs and output.
    pub signature: CallSignature,
    /// The 32-byte query id the runtime dispatches on.
    pub id: [u8; 32],
}

impl Registry {
    /// The runtime API method `trait_name.method` of the loaded metadata
    /// (V15+; V14 and older metadata list none: [`Error::NotInMetadata`]).
    /// Resolved once per loaded metadata and shared after, so looking a
    /// method up by name for every answer costs next to nothing.
    pub fn runtime_api(
        &mut self,
        trait_name: &str,
        method: &str,
    ) -> Result<Arc<RuntimeApiCall>, Error> {
        if let Some(call) = self
            .runtime_api_calls
            .get(trait_name)
            .and_then(|methods| methods.get(method))
        {
            return Ok(Arc::clone(call));
        }
        let call = Arc::new(self.resolve_runtime_api(trait_name, method)?);
        self.runtime_api_calls
            .entry(trait_name.to_owned())
            .or_default()
            .insert(method.to_owned(), Arc::clone(&call));
        Ok(call)
    }

    fn resolve_runtime_api(
        &mut self,
        trait_name: &str,
        method: &str,
    ) -> Result<RuntimeApiCall, Error> {
        let md = self.require_metadata(ItemKind::RuntimeApi, trait_name, method)?;
        if md.version < 15 {
            return Err(Error::NotInMetadata {
                kind: ItemKind::RuntimeApi,
                version: md.version,
            });
        }
        let api = md.apis.iter().find(|a| a.name == trait_name);
        let m: &RuntimeApiMethod = api
            .and_then(|a| a.methods.iter().find(|m| m.name == method))
            .ok_or_else(|| Error::not_found(ItemKind::RuntimeApi, trait_name, method))?;
        let signature = self.signature(trait_name, &m.name, &m.inputs, m.output, &m.docs)?;
        Ok(RuntimeApiCall { signature })
    }

    /// The view function `pallet.name` of the loaded metadata (V16; older
    /// metadata lists none: [`Error::NotInMetadata`]).
    pub fn view_function(&mut self, pallet: &str, name: &str) -> Result<ViewFunctionCall, Error> {
        let md = self.require_metadata(ItemKind::ViewFunction, pallet, name)?;
        if md.version < 16 {
            return Err(Error::NotInMetadata {
                kind: ItemKind::ViewFunction,
                version: md.version,
            });
        }
        let f = md
            .pallet(pallet)
            .and_then(|p| p.view_functions.iter().find(|f| f.name == name))
            .ok_or_else(|| Error::not_found(ItemKind::ViewFunction, pallet, name))?;
        let signature = self.signature(pallet, &f.name, &f.inputs, f.output, &f.docs)?;
        Ok(ViewFunctionCall {
            signature,
            id: f.id,
        })
    }

    /// The arguments of `signature` SCALE-encoded one after the other, as
    /// a runtime call takes them. `args` holds one value per input, in order.
    pub fn encode_call_args(
        &mut self,
        signature: &CallSignature,
        args: &[Value],
    ) -> Result<Vec<u8>, Error> {
        if args.len() != signature.inputs.len() {
            let names: Vec<&str> = signature.inputs.iter().map(|(n, _)| n.as_str()).collect();
            return Err(Error::Usage(format!(
                "{}.{} takes {} argument(s) ({}), {} given",
                signature.owner,
                signature.name,
                names.len(),
                names.join(", "),
                args.len()
            )));
        }
        let ctx = self.context();
        let mut out = Vec::new();
        for ((name, ty), value) in signature.inputs.iter().zip(args) {
            let bytes = encode_value(&ctx, *ty, value).map_err(|e| {
                Error::Usage(format!(
                    "argument {name} of {}.{}: {e}",
                    signature.owner, signature.name
                ))
            })?;
            out.extend_from_slice(&bytes);
        }
        Ok(out)
    }

    /// What to send to `state_call` for a runtime API method: its name and
    /// the encoded arguments.
    pub fn runtime_api_request(
        &mut self,
        call: &RuntimeApiCall,
        args: &[Value],
    ) -> Result<(String, Vec<u8>), Error> {
        Ok((
            call.method_name(),
            self.encode_call_args(&call.signature, args)?,
        ))
    }

    /// Decodes a runtime API method's answer (all of `bytes`).
    pub fn decode_runtime_api_result(
        &mut self,
        call: &RuntimeApiCall,
        bytes: &[u8],
    ) -> Result<Value, Error> {
        decode_value(&self.context(), call.signature.output, bytes)
    }

    /// What to send to `state_call` for a view function: the runtime API
    /// `RuntimeViewFunction_execute_view_function` with the query id and the
    /// encoded arguments (as one `Vec<u8>`).
    pub fn view_function_request(
        &mut self,
        view: &ViewFunctionCall,
        args: &[Value],
    ) -> Result<(String, Vec<u8>), Error> {
        let input = self.encode_call_args(&view.signature, args)?;
        let mut data = view.id.to_vec();
        crate::encode::compact(input.len() as u128, &mut data);
        data.extend_from_slice(&input);
        Ok((
            format!("{}_{}", VIEW_FUNCTION_API.0, VIEW_FUNCTION_API.1),
            data,
        ))
    }

    /// Decodes a view function's result: the output bytes the runtime
    /// produced (the `Ok` payload of the `execute_view_function` answer).
    pub fn decode_view_function_result(
        &mut self,
        view: &ViewFunctionCall,
        bytes: &[u8],
    ) -> Result<Value, Error> {
        decode_value(&self.context(), view.signature.output, bytes)
    }

    /// Decodes the whole `state_call` answer of a view function request:
    /// `Result<Vec<u8>, ViewFunctionDispatchError>`; the `Ok` bytes decode
    /// as the view function's output, an `Err` is an error naming the
    /// dispatch error the runtime gave.
    pub fn decode_view_function_answer(
        &mut self,
        view: &ViewFunctionCall,
        answer: &[u8],
    ) -> Result<Value, Error> {
        let failed = |detail: String| {
            Error::Usage(format!(
                "view function {}.{} {detail}",
                view.signature.owner, view.signature.name
            ))
        };
        match answer.first() {
            // `Ok(Vec<u8>)`: the output's bytes behind a compact length.
            Some(0) => {
                let (len, used) = crate::decode::compact_prefix(&answer[1..])
                    .ok_or_else(|| failed("answer: no compact length after Ok".into()))?;
                let payload = &answer[1 + used..];
                if payload.len() as u128 != len {
                    return Err(failed(format!(
                        "answer: Ok says {len} bytes, {} follow",
                        payload.len()
                    )));
                }
                self.decode_view_function_result(view, payload)
            }
            // `Err(ViewFunctionDispatchError)`: shown as the runtime API's
            // result type decodes it.
            Some(1) => {
                let api = self.runtime_api(VIEW_FUNCTION_API.0, VIEW_FUNCTION_API.1)?;
                let outcome = self.decode_runtime_api_result(&api, answer)?;
                let error = outcome.get("Err").unwrap_or(&outcome);
                Err(failed(format!("failed in the runtime: {error}")))
            }
            _ => Err(failed(
                "answer is not a Result (first byte must be 0 or 1)".into(),
            )),
        }
    }

    fn signature(
        &mut self,
        owner: &str,
        name: &str,
        inputs: &[Param],
        output: u32,
        docs: &[String],
    ) -> Result<CallSignature, Error> {
        let inputs = inputs
            .iter()
            .map(|p| {
                Ok((
                    p.name.clone(),
                    self.type_of(&ferroscale_metadata::TypeRef::Id(p.ty))?,
                ))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(CallSignature {
            owner: owner.to_owned(),
            name: name.to_owned(),
            inputs,
            output: self.type_of(&ferroscale_metadata::TypeRef::Id(output))?,
            docs: docs.to_vec(),
        })
    }
}
