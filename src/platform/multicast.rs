//! What only the operating system can grant. On Android: the Wi-Fi multicast lock that lets
//! LAN discovery hear other devices' beacons (Android drops multicast and broadcast
//! packets to apps that do not hold one). Elsewhere nothing needs asking, and the lock is
//! an empty token.

/// Held while this device looks for or announces a LAN game; dropping it releases it.
#[derive(Debug)]
pub struct MulticastLock {
    #[cfg(all(target_os = "android", feature = "android-platform"))]
    _held: android::Held,
}

impl MulticastLock {
    /// Asks the system for the lock (Android, through JNI `WifiManager`); a no-op elsewhere.
    pub fn acquire() -> Result<Self, String> {
        #[cfg(all(target_os = "android", feature = "android-platform"))]
        {
            Ok(MulticastLock {
                _held: android::Held::acquire()
                    .map_err(|e| format!("Wi-Fi multicast lock: {e}"))?,
            })
        }
        #[cfg(not(all(target_os = "android", feature = "android-platform")))]
        {
            Ok(MulticastLock {})
        }
    }
}

#[cfg(all(target_os = "android", feature = "android-platform"))]
mod android {
    use jni::objects::{GlobalRef, JObject, JValue};
    use jni::{JNIEnv, JavaVM};

    /// A `WifiManager.MulticastLock` the app acquired, released on drop.
    pub struct Held {
        vm: JavaVM,
        lock: GlobalRef,
    }

    impl std::fmt::Debug for Held {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("MulticastLock(held)")
        }
    }

    impl Held {
        /// `context.getSystemService("wifi").createMulticastLock(tag)`, not reference
        /// counted, then `acquire()`.
        pub fn acquire() -> jni::errors::Result<Self> {
            let ctx = ndk_context::android_context();
            // SAFETY: ndk-context holds the activity's JavaVM and Context for the whole life
            // of the process (android-activity initialises it before `android_main`).
            let vm = unsafe { JavaVM::from_raw(ctx.vm().cast()) }?;
            let lock = {
                let mut env = vm.attach_current_thread()?;
                // SAFETY: as above, a live global reference owned by android-activity.
                let context = unsafe { JObject::from_raw(ctx.context().cast()) };
                let wifi = call_with_text(
                    &mut env,
                    &context,
                    "getSystemService",
                    "(Ljava/lang/String;)Ljava/lang/Object;",
                    "wifi",
                )?;
                let lock = call_with_text(
                    &mut env,
                    &wifi,
                    "createMulticastLock",
                    "(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;",
                    "hotseat-lan-discovery",
                )?;
                env.call_method(&lock, "setReferenceCounted", "(Z)V", &[JValue::Bool(0)])?;
                env.call_method(&lock, "acquire", "()V", &[])?;
                env.new_global_ref(lock)?
            };
            Ok(Held { vm, lock })
        }
    }

    /// `object.method(text)` for a method of one string argument that returns an object.
    fn call_with_text<'local>(
        env: &mut JNIEnv<'local>,
        object: &JObject,
        method: &str,
        signature: &str,
        text: &str,
    ) -> jni::errors::Result<JObject<'local>> {
        let text = env.new_string(text)?;
        env.call_method(object, method, signature, &[JValue::Object(&text)])?
            .l()
    }

    impl Drop for Held {
        fn drop(&mut self) {
            let released = self.vm.attach_current_thread().and_then(|mut env| {
                env.call_method(self.lock.as_obj(), "release", "()V", &[])
                    .map(|_| ())
            });
            if let Err(e) = released {
                crate::note!("the Wi-Fi multicast lock could not be released: {e}");
            }
        }
    }
}
